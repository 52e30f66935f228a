import type { EntityManager } from '../persistence/orm.js';
import type { ConnectionSample, QueuePoint } from './collect-sample.js';

export const rollupMs = 15 * 60_000;
const rowsPerStatement = 400;

const countColumns = [
  'waiting',
  'active',
  'delayed',
  'failed',
  'completed',
  'completed_delta',
  'failed_delta',
  'oldest_waiting_seconds',
  'paused',
  'workers',
] as const;
const storeColumns = ['queues', 'up', 'used_memory', 'max_memory', 'clients', 'ops_per_second'] as const;
/** Queue rows only: jobs measured, processing and wait percentiles in ms (null when nothing finished; see sample-latency.ts). */
const latencyColumns = [
  'latency_jobs',
  'processing_p50_ms',
  'processing_p95_ms',
  'processing_p99_ms',
  'wait_p50_ms',
  'wait_p95_ms',
  'wait_p99_ms',
] as const;
const queueColumns = [...countColumns, ...latencyColumns];

/**
 * How a roll-up row absorbs a later sample of its 15 minutes: gauges take the latest value,
 * finished-since counts add up, the oldest-waiting age keeps the worst. One statement for both
 * databases but for the name of the two-argument maximum.
 */
function rollupMerge(table: string, columns: readonly string[], isPostgres: boolean): string {
  const greatest = isPostgres ? 'greatest' : 'max';
  return columns
    .map((column) => {
      if (column === 'completed_delta' || column === 'failed_delta' || column === 'latency_jobs')
        return `${column} = ${table}.${column} + excluded.${column}`;
      // A roll-up keeps each percentile's worst sample; a null (nothing finished) never wins over a value.
      if (column.endsWith('_ms'))
        return `${column} = ${greatest}(coalesce(${table}.${column}, excluded.${column}), coalesce(excluded.${column}, ${table}.${column}))`;
      if (column === 'oldest_waiting_seconds') return `${column} = ${greatest}(${table}.${column}, excluded.${column})`;
      return `${column} = excluded.${column}`;
    })
    .join(', ');
}

const countValues = (
  point: Omit<QueuePoint, 'prefix' | 'queueName' | 'paused' | 'latency'> & { paused: number | boolean },
) => [
  point.waiting,
  point.active,
  point.delayed,
  point.failed,
  point.completed,
  point.completedDelta,
  point.failedDelta,
  point.oldestWaitingSeconds,
  Number(point.paused),
  point.workers,
];

const latencyValues = ({ latency }: QueuePoint) => [
  latency?.jobs ?? 0,
  ...(latency?.processingMs ?? [null, null, null]),
  ...(latency?.waitMs ?? [null, null, null]),
];

/**
 * Queues written per transaction. Embedded mode's SQLite driver is synchronous: a transaction holds the
 * event loop from its first statement to its commit, and a sample written in one (11,000 queues: ~150 ms,
 * measured) stalled every request in flight once a minute. Slices of 200 queues take ~3 ms each, with a
 * turn of the event loop between them.
 */
const queuesPerTransaction = 200;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

const queueKeys = ['connection_id', 'prefix', 'queue_name', 'resolution', 'at'];
const connectionKeys = ['connection_id', 'resolution', 'at'];

/**
 * Stores one sample: raw rows, and the same figures folded into the 15-minute roll-up on write. Each
 * queue's two rows are written together, slice by slice; the connection's rows come last, so a
 * connection point exists only once every queue's is stored (a write cut short leaves some queues'
 * points of that instant, never a connection point without them).
 */
export async function writeSample(em: EntityManager, connectionId: string, sample: ConnectionSample): Promise<void> {
  const isPostgres = em.getPlatform().constructor.name === 'PostgreSqlPlatform';
  const bucket = Math.floor(sample.at / rollupMs) * rollupMs;
  const queueRows = (points: readonly QueuePoint[], resolution: string, at: number) =>
    points.map((point) => [
      connectionId,
      point.prefix,
      point.queueName,
      resolution,
      at,
      ...countValues(point),
      ...latencyValues(point),
    ]);
  for (let start = 0; start < sample.queues.length; start += queuesPerTransaction) {
    const slice = sample.queues.slice(start, start + queuesPerTransaction);
    await em.transactional(async (tx) => {
      await upsert(tx, 'queue_sample', queueKeys, queueColumns, queueRows(slice, 'raw', sample.at), isPostgres);
      await upsert(tx, 'queue_sample', queueKeys, queueColumns, queueRows(slice, '15m', bucket), isPostgres);
    });
    await nextTurn();
  }
  const { totals, store } = sample;
  const connectionRow = (resolution: string, at: number) => [
    [
      connectionId,
      resolution,
      at,
      ...countValues(totals),
      totals.queues,
      Number(store.up),
      store.usedMemory,
      store.maxMemory,
      store.clients,
      store.opsPerSecond,
    ],
  ];
  await em.transactional(async (tx) => {
    await upsert(
      tx,
      'connection_sample',
      connectionKeys,
      [...countColumns, ...storeColumns],
      connectionRow('raw', sample.at),
      isPostgres,
    );
    await upsert(
      tx,
      'connection_sample',
      connectionKeys,
      [...countColumns, ...storeColumns],
      connectionRow('15m', bucket),
      isPostgres,
    );
  });
}

async function upsert(
  em: EntityManager,
  table: string,
  keys: string[],
  columns: readonly string[],
  rows: unknown[][],
  isPostgres: boolean,
): Promise<void> {
  const names = [...keys, ...columns];
  const placeholders = `(${names.map(() => '?').join(', ')})`;
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    const batch = rows.slice(start, start + rowsPerStatement);
    const sql = `insert into ${table} (${names.join(', ')}) values ${batch.map(() => placeholders).join(', ')} on conflict (${keys.join(', ')}) do update set ${rollupMerge(table, columns, isPostgres)}`;
    await em.execute(sql, batch.flat(), 'run');
  }
}

/**
 * When the connection's newest raw sample was taken, as stored: where the next sample's finished-since
 * counts start after a restart or a lease handover, so the jobs finished in between are counted once.
 */
export async function storedSampleAt(em: EntityManager, connectionId: string): Promise<number | null> {
  const rows = await em.execute<Array<{ at: number | string | null }>>(
    "select max(at) as at from connection_sample where connection_id = ? and resolution = 'raw'",
    [connectionId],
  );
  const at = rows[0]?.at;
  return at === null || at === undefined ? null : Number(at);
}
