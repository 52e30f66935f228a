import { raw, type EntityName } from '@mikro-orm/core';
import {
  ConnectionSample,
  QueueSample,
  type ConnectionSampleRow,
  type QueueSampleRow,
} from '../persistence/entities/history.js';
import type { EntityManager } from '../persistence/orm.js';

export type Resolution = 'raw' | '15m';
export type QueueSampleData = QueueSampleRow;
export type ConnectionSampleData = ConnectionSampleRow;

/** Rows per insert: 400 rows of 24 columns stay far below either database's limit of bound parameters. */
const rowsPerStatement = 400;

/** Figures a roll-up adds up over its bucket; gauges take the latest, the oldest-waiting age the worst. */
const summed = new Set(['completedDelta', 'failedDelta', 'latencyJobs']);

interface UpsertStatement {
  props: string[];
  /** `insert into … (columns) values` */
  head: string;
  placeholders: string;
  /** `on conflict (keys) do update set …` */
  tail: string;
}

/**
 * How a stored row absorbs a later sample of the same key (a roll-up row: each sample of its 15 minutes):
 * gauges take the new value, the finished-since counts add up, the oldest-waiting age and each percentile
 * keep the worst (a null, nothing finished, never wins over a value). Column names come from the entity.
 */
function upsertStatement(em: EntityManager, entity: EntityName<object>, keys: string[]): UpsertStatement {
  const meta = em.getMetadata().get(entity);
  const greatest = em.getPlatform().constructor.name === 'PostgreSqlPlatform' ? 'greatest' : 'max';
  const table = meta.tableName;
  const fieldOf = new Map(meta.props.map((prop) => [prop.name as string, prop.fieldNames[0]!]));
  const column = (prop: string) => fieldOf.get(prop)!;
  const props = meta.props.map((prop) => prop.name as string);
  const merges = props
    .filter((prop) => !keys.includes(prop))
    .map((prop) => {
      const [name, stored, given] = [column(prop), `${table}.${column(prop)}`, `excluded.${column(prop)}`];
      if (summed.has(prop)) return `${name} = ${stored} + ${given}`;
      if (name.endsWith('_ms'))
        return `${name} = ${greatest}(coalesce(${stored}, ${given}), coalesce(${given}, ${stored}))`;
      if (prop === 'oldestWaitingSeconds') return `${name} = ${greatest}(${stored}, ${given})`;
      return `${name} = ${given}`;
    });
  return {
    props,
    head: `insert into ${table} (${props.map(column).join(', ')}) values `,
    placeholders: `(${props.map(() => '?').join(', ')})`,
    tail: ` on conflict (${keys.map(column).join(', ')}) do update set ${merges.join(', ')}`,
  };
}

const statements = new WeakMap<object, Map<EntityName<object>, UpsertStatement>>();

/**
 * Inserts sample rows, or folds them into the stored row of the same key (see upsertStatement): one
 * statement per 400 rows. Raw SQL, the one place history keeps it, for a measured reason: MikroORM
 * cannot say "the stored value plus the new one" in `em.upsertMany`, and its query builder (and the
 * Kysely it exposes) cost 2.5–3× the CPU of this statement for a sample of 1,006 queues (~75 ms more per
 * sample on the bench machine), on an event loop that serves requests meanwhile.
 */
async function upsert<Row extends object>(
  em: EntityManager,
  entity: EntityName<Row>,
  keys: string[],
  rows: Row[],
): Promise<void> {
  const byEntity = statements.get(em.getPlatform()) ?? new Map<EntityName<object>, UpsertStatement>();
  statements.set(em.getPlatform(), byEntity);
  const statement =
    byEntity.get(entity as EntityName<object>) ?? upsertStatement(em, entity as EntityName<object>, keys);
  byEntity.set(entity as EntityName<object>, statement);
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    const batch = rows.slice(start, start + rowsPerStatement) as Array<Record<string, unknown>>;
    const values = batch.flatMap((row) => statement.props.map((prop) => row[prop] ?? null));
    const sql = `${statement.head}${batch.map(() => statement.placeholders).join(', ')}${statement.tail}`;
    await em.execute(sql, values, 'run');
  }
}

const queueKeys = ['connectionId', 'prefix', 'queueName', 'resolution', 'at'];
const connectionKeys = ['connectionId', 'resolution', 'at'];

export const upsertQueueSamples = (em: EntityManager, rows: QueueSampleData[]) =>
  upsert(em, QueueSample, queueKeys, rows);
export const upsertConnectionSamples = (em: EntityManager, rows: ConnectionSampleData[]) =>
  upsert(em, ConnectionSample, connectionKeys, rows);

/** When the connection's newest raw sample was taken (null: none stored). */
export async function newestSampleAt(em: EntityManager, connectionId: string): Promise<number | null> {
  const row = await em
    .createQueryBuilder(ConnectionSample)
    .select(raw('max(at) as at'))
    .where({ connectionId, resolution: 'raw' })
    .execute<{ at: number | string | null } | undefined>('get', false);
  return row?.at === null || row?.at === undefined ? null : Number(row.at);
}

/** Which rows of a time range: `to` is exclusive unless `toInclusive` (an alert window ends now). */
export interface SampleRange {
  connectionId: string;
  resolution: Resolution;
  from: number;
  to: number;
  toInclusive?: boolean;
}

const inRange = (range: SampleRange) => ({
  connectionId: range.connectionId,
  resolution: range.resolution,
  at: { $gte: range.from, [range.toInclusive ? '$lte' : '$lt']: range.to },
});

/** Queue rows of a range, oldest first: of one queue, or of every queue of the connection. */
export async function queueSamples(
  em: EntityManager,
  range: SampleRange,
  queue?: { prefix: string; queueName: string },
): Promise<QueueSampleData[]> {
  return em
    .createQueryBuilder(QueueSample)
    .select('*')
    .where({ ...inRange(range), ...queue })
    .orderBy({ at: 'asc' })
    .execute<QueueSampleData[]>('all');
}

/** The connection's rows of a range, oldest first. */
export async function connectionSamples(em: EntityManager, range: SampleRange): Promise<ConnectionSampleData[]> {
  return em
    .createQueryBuilder(ConnectionSample)
    .select('*')
    .where(inRange(range))
    .orderBy({ at: 'asc' })
    .execute<ConnectionSampleData[]>('all');
}

/** The prefixes under which a queue has samples, newest first. */
export async function sampledPrefixes(em: EntityManager, connectionId: string, queueName: string): Promise<string[]> {
  const rows = await em
    .createQueryBuilder(QueueSample)
    .select(['prefix', raw('max(at) as newest')])
    .where({ connectionId, queueName })
    .groupBy('prefix')
    .orderBy({ [raw('newest')]: 'desc' })
    .execute<Array<{ prefix: string }>>('all', false);
  return rows.map((row) => row.prefix);
}

/** The queues of one instant that measured processing times (their percentiles not null). */
export async function measuredQueueSamples(em: EntityManager, connectionId: string, at: number) {
  return em
    .createQueryBuilder(QueueSample)
    .select(['prefix', 'queueName', 'processingP50Ms', 'processingP95Ms', 'processingP99Ms'])
    .where({ connectionId, resolution: 'raw', at, processingP50Ms: { $ne: null } })
    .execute<Array<Pick<QueueSampleData, 'prefix' | 'queueName' | `processingP${50 | 95 | 99}Ms`>>>('all');
}

/** Deletes the rows of a resolution older than `before`, queue and connection rows alike. */
export async function removeSamplesBefore(em: EntityManager, resolution: Resolution, before: number): Promise<void> {
  await em.nativeDelete(QueueSample, { resolution, at: { $lt: before } });
  await em.nativeDelete(ConnectionSample, { resolution, at: { $lt: before } });
}
