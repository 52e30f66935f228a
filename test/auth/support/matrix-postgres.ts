import pg from 'pg';
import { connectionProtections, type ConnectionProtection } from '../../../contracts/protection.js';
import { request } from '../../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';
import { deleteKeysMatching, uniquePrefix } from '../../helpers/stores.js';
import { migrateBullmqSchema } from '../../helpers/postgres-queues.js';
import type { CaseStore } from './matrix-case.js';
import { prepareTargets } from './matrix-fixtures.js';
import { buildPostgresTemplate } from './queue-template.js';
import type { MatrixWorld, SavedConnection } from './matrix-world.js';

const schema = 'bullmq';
const template = 'tpl';

/**
 * The adversarial matrix's store on PostgreSQL: a database of its own with BullMQ's schema, one
 * saved `postgres://` connection per protection in organization A, and the template queue (every
 * state a mutating route acts on, built once by a real BullMQ Worker on createPostgresBackend)
 * copied row by row under a fresh name for each case.
 */
export class PostgresMatrixStore implements CaseStore {
  private readonly connections = {} as Record<ConnectionProtection, SavedConnection>;
  private queueTables: string[] = [];
  private snapshotSql = '';

  private constructor(
    private readonly world: MatrixWorld,
    private readonly database: TestDatabase,
    private readonly client: pg.Client,
  ) {}

  static async create(world: MatrixWorld): Promise<PostgresMatrixStore> {
    const database = await createTestDatabase();
    await migrateBullmqSchema(database.url, schema);
    const client = new pg.Client({ connectionString: database.url, options: `-c search_path=${schema}` });
    await client.connect();
    const store = new PostgresMatrixStore(world, database, client);
    await buildPostgresTemplate({ connectionString: database.url, schema }, template);
    await store.readTables();
    for (const protection of connectionProtections) store.connections[protection] = await store.save(protection);
    return store;
  }

  connection(protection: ConnectionProtection): SavedConnection {
    return this.connections[protection];
  }

  async prepare(connection: SavedConnection, needs: Parameters<CaseStore['prepare']>[1]) {
    const t = await prepareTargets(this.world, connection, needs);
    if (needs.includes('queue')) await this.copyTemplate(t.queueName);
    return t;
  }

  /** Every row of every table of the BullMQ schema (the move journal once a case made it), in a stable order. */
  async snapshot(): Promise<string> {
    const { rows } = await this.client.query<{ name: string; rows: Array<string | null> | null }>(this.snapshotSql);
    const journal = rows.at(-1)!.rows![0]
      ? (await this.client.query(`SELECT to_jsonb(j)::text AS row FROM bullpen_move_journal j ORDER BY 1`)).rows
      : [];
    return JSON.stringify([rows, journal]);
  }

  /** A store-key route on a PostgreSQL connection: 400 NOT_A_KEY_VALUE_STORE, whoever may call it. */
  refusesAllowed(procedure: string) {
    return procedure.startsWith('storeKeys.') ? { status: 400, code: 'NOT_A_KEY_VALUE_STORE' } : undefined;
  }

  /** Every queue but the template goes (its rows in each table that names a queue), and the Redis key a case made. */
  async cleanup(connection: SavedConnection): Promise<void> {
    await deleteKeysMatching(this.world.redis, `${connection.prefix}*`);
    await this.client.query(
      [
        ...this.queueTables.map((table) => `DELETE FROM "${table}" WHERE queue <> '${template}'`),
        'DROP TABLE IF EXISTS bullpen_move_journal',
      ].join(';'),
    );
  }

  async close(): Promise<void> {
    await this.client.end();
    await this.database.drop();
  }

  /** The tables with a `queue` column, and one statement that dumps every table: read once, used by every case. */
  private async readTables(): Promise<void> {
    const { rows } = await this.client.query<{ name: string; queued: boolean }>(
      `SELECT t.table_name AS name, EXISTS (SELECT 1 FROM information_schema.columns c
          WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name AND c.column_name = 'queue') AS queued
         FROM information_schema.tables t WHERE t.table_schema = $1 AND t.table_type = 'BASE TABLE' ORDER BY 1`,
      [schema],
    );
    this.queueTables = rows.filter((row) => row.queued).map((row) => row.name);
    const dumps = rows.map(
      ({ name }) =>
        `SELECT '${name}' AS name, (SELECT array_agg(to_jsonb(t)::text ORDER BY to_jsonb(t)::text) FROM "${name}" t) AS rows`,
    );
    dumps.push(`SELECT 'journal' AS name, ARRAY[to_regclass('bullpen_move_journal')::text] AS rows`);
    this.snapshotSql = dumps.join(' UNION ALL ');
  }

  /** The template's rows as queue `name` (jobs, logs, scheduler, meta, events…): a case changes only its own copy. */
  private async copyTemplate(name: string): Promise<void> {
    const quoted = `'${name.replaceAll("'", "''")}'`;
    await this.client.query(
      this.queueTables
        .map(
          (table) =>
            `INSERT INTO "${table}" SELECT (jsonb_populate_record(NULL::"${table}", to_jsonb(t) || jsonb_build_object('queue', ${quoted}::text))).* FROM "${table}" t WHERE queue = '${template}'`,
        )
        .join(';'),
    );
  }

  private async save(protection: ConnectionProtection): Promise<SavedConnection> {
    const body = { name: `pg-${protection}`, url: this.database.url, schema, protection };
    const created = await request(`${this.world.app.api}/connections`, {
      method: 'POST',
      headers: this.world.browser(this.world.instanceOwner, this.world.organizationA),
      body,
    });
    if (created.status !== 201) throw new Error(`connection: ${created.status} ${JSON.stringify(created.body)}`);
    // `prefix` only names the plain Redis key a store-key case asks this connection to delete (it holds none).
    return { id: created.body.id, name: body.name, prefix: uniquePrefix('mxpg'), protection };
  }
}
