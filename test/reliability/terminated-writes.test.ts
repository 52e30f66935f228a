import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnreachable } from '../../server/persistence/database-unavailable.js';
import type { Orm } from '../../server/persistence/orm.js';
import { openServiceOrm, writeOrganization } from './support/service-orm.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

const poolSize = 2;
const terminateOthers =
  'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()';

/**
 * The ORM as the service opens it (server/persistence/orm.ts), its writes
 * terminated mid-transaction. kysely releases a transaction's connection only
 * after a BEGIN, COMMIT or ROLLBACK that succeeded; on a terminated connection
 * the ROLLBACK fails, and each such write used to keep its pool slot forever:
 * after pool-size of them every request waited for a connection and was
 * answered 503, until a restart (database-terminations.test.ts saw it as
 * write rounds that never reached the database again).
 */
describe('writes whose connections are terminated mid-transaction', () => {
  let database: TestDatabase;
  let orm: Orm;
  let pool: pg.Pool;
  let admin: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    ({ orm, pool } = await openServiceOrm(database.url, { timeoutMs: 4000, poolSize }));
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  }, 60_000);

  afterAll(async () => {
    await admin?.end();
    // A leaked client makes pool.end() wait for it forever: the failure is the test's, not a hung hook.
    await Promise.race([orm?.close(true), sleep(2000)]);
    await database?.drop();
  });

  const write = () => writeOrganization(orm, 'terminated');

  /** One write waiting on a lock the test holds when its backend is terminated; resolves with its error. */
  async function terminatedWrite(): Promise<unknown> {
    await admin.query('begin');
    await admin.query('lock table organization in access exclusive mode');
    let settled = false;
    const failed = write()
      .then(
        () => new Error('the write was not terminated'),
        (error: unknown) => error,
      )
      .finally(() => (settled = true));
    // A write that fails before it reaches the lock (no connection to be had) has nothing to wait for.
    await waitUntil(async () => {
      if (settled) return true;
      // The admin is inside its transaction: without this, pg_stat_activity answers from its first snapshot.
      await admin.query('select pg_stat_clear_snapshot()');
      const waiting = await admin.query(
        `select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike 'insert into "organization"%'`,
      );
      return waiting.rowCount === 1;
    });
    await admin.query(terminateOthers);
    await admin.query('commit');
    return failed;
  }

  it('gives their connections back: after twice the pool size of them none is checked out, and writes succeed', async () => {
    for (let round = 0; round < poolSize * 2; round++) {
      const error = await terminatedWrite();
      // Answered 503 by the service (and rounds after the pool size would time out on acquire if slots leaked).
      expect(isDatabaseUnreachable(error), String(error)).toBe(true);
      expect((error as Error).message).not.toMatch(/timeout exceeded when trying to connect/);
    }
    // The slot is given back when the socket's end is read, just after the statement failed.
    await waitUntil(async () => pool.totalCount === pool.idleCount, 2000).catch(() => {});
    expect({ checkedOut: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }).toEqual({
      checkedOut: 0,
      waiting: 0,
    });
    for (let index = 0; index < poolSize + 1; index++) await write();
  }, 30_000);
});

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}
