import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dropTerminatedConnections } from '../../server/persistence/pg-pool.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';

/**
 * The pool the service builds (server/persistence/orm.ts) against a real
 * PostgreSQL whose backends are terminated as `pg_terminate_backend` does.
 */
describe('a pooled PostgreSQL connection terminated by the server', () => {
  let database: TestDatabase;
  let admin: pg.Client;
  let pool: pg.Pool;
  const held = new Set<pg.PoolClient>();

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });

  afterEach(async () => {
    // A failed expectation leaves a client checked out: pool.end() would wait for it forever.
    for (const client of held) client.release(true);
    held.clear();
    await pool?.end();
  });

  afterAll(async () => {
    await admin?.end();
    await database?.drop();
  });

  const openPool = (max: number) => {
    pool = new pg.Pool({ connectionString: database.url, max });
    // A terminated idle client is re-emitted by the pool; the service logs it (MikroORM's listener).
    pool.on('error', () => {});
    pool.on('acquire', (client) => held.add(client));
    pool.on('release', (_error, client) => held.delete(client));
    dropTerminatedConnections(pool, max);
    return pool;
  };

  /** Runs a statement that waits until its backend is terminated; resolves with its error. */
  async function terminatedWhileRunning(client: pg.PoolClient): Promise<Error & { code?: string }> {
    const [{ pid }] = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows as [{ pid: number }];
    const running = client.query('select pg_sleep(30)').then(
      () => new Error('the statement was not terminated'),
      (error: Error) => error,
    );
    await waitUntil(
      async () =>
        (await admin.query(`select 1 from pg_stat_activity where pid = $1 and wait_event = 'PgSleep'`, [pid]))
          .rowCount === 1,
    );
    await admin.query('select pg_terminate_backend($1)', [pid]);
    return running;
  }

  it('is not handed out again when released right after its statement failed (as kysely releases it)', async () => {
    openPool(1);
    const client = await pool.connect();
    const error = await terminatedWhileRunning(client);
    expect(error.code).toBe('57P01');
    // At once, before the socket's end is read: the pool still believed this client queryable.
    client.release();
    const next = await pool.connect();
    expect(next).not.toBe(client);
    expect((await next.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    next.release();
  });

  it('makes every connection opened before the termination suspect: the next request gets a new one', async () => {
    openPool(3);
    const [killed, idleA, idleB] = await Promise.all([pool.connect(), pool.connect(), pool.connect()]);
    idleA.release();
    idleB.release();
    expect((await terminatedWhileRunning(killed)).code).toBe('57P01');
    killed.release();
    // The idle ones may have been terminated in the same sweep, their messages not yet read: never reused.
    const next = await pool.connect();
    expect([killed, idleA, idleB]).not.toContain(next);
    expect((await next.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    next.release();
    // Connections opened after the termination are trusted and reused.
    const again = await pool.connect();
    expect(again).toBe(next);
    again.release();
  });

  it('gives back the slot of a client that ended while checked out, even if its holder never releases it', async () => {
    // kysely's transactions release only after a ROLLBACK that succeeded: on a terminated connection, never.
    openPool(1);
    const client = await pool.connect();
    expect((await terminatedWhileRunning(client)).code).toBe('57P01');
    const waiting = pool.connect();
    const next = await Promise.race([waiting, sleep(2000).then(() => null)]);
    // Otherwise the late client would keep pool.end() in afterEach waiting.
    if (!next) void waiting.then((late) => late.release());
    expect(next, 'the only slot is still held by the dead client').not.toBeNull();
    expect(next).not.toBe(client);
    // A holder that does release later (kysely after a failed statement) changes nothing, and does not throw.
    expect(() => client.release()).not.toThrow();
    expect((await next!.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    next!.release();
    expect(pool.totalCount - pool.idleCount).toBe(0);
  });

  it('keeps connections when a statement fails for another reason', async () => {
    openPool(1);
    const client = await pool.connect();
    await expect(client.query('select 1/0')).rejects.toMatchObject({ code: '22012' });
    client.release();
    const next = await pool.connect();
    expect(next).toBe(client);
    next.release();
  });

  it('serves pool.query (the callback form of connect) after a termination', async () => {
    openPool(2);
    const client = await pool.connect();
    expect((await terminatedWhileRunning(client)).code).toBe('57P01');
    client.release();
    expect((await pool.query('select 2 as two')).rows).toEqual([{ two: 2 }]);
  });
});

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
