import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnreachable } from '../../server/persistence/database-unavailable.js';
import type { Orm } from '../../server/persistence/orm.js';
import { openServiceOrm, writeOrganization } from './support/service-orm.js';
import { createTestDatabase, queryDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';

const poolSize = 2;

/**
 * The ORM as the service opens it, its PostgreSQL behind a proxy that goes silent (nothing answered,
 * nothing closed) while writes are in their transactions. A statement unanswered within query_timeout
 * must end its connection (endOnReadTimeout, server/persistence/pg-pool.ts): otherwise the transaction's ROLLBACK times out
 * queued behind it, the pool slot is never given back, and when the network returns the server holds
 * the transaction open with its locks.
 */
describe('writes while the network to PostgreSQL is silent', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let orm: Orm;
  let pool: pg.Pool;

  beforeAll(async () => {
    database = await createTestDatabase();
    proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
    const viaProxy = new URL(database.url);
    viaProxy.port = String(proxy.port);
    ({ orm, pool } = await openServiceOrm(viaProxy.href, { timeoutMs: 2000, poolSize }));
  }, 60_000);

  afterAll(async () => {
    proxy?.resume();
    // A leaked client makes pool.end() wait for it forever: the failure is the test's, not a hung hook.
    await Promise.race([orm?.close(true), sleep(2000)]);
    await proxy?.close();
    await database?.drop();
  });

  const write = () => writeOrganization(orm, 'silent');

  it('answers each write unavailable within the budget, then gives every slot back and leaves no transaction open', async () => {
    // Both pooled connections open first, so the silent writes start on live ones.
    await Promise.all([write(), write()]);
    proxy.silence();
    const started = performance.now();
    const errors = await Promise.all(
      [write(), write()].map((pending) =>
        pending.then(
          () => new Error('the write succeeded'),
          (error: unknown) => error,
        ),
      ),
    );
    const elapsedMs = performance.now() - started;
    for (const error of errors) expect(isDatabaseUnreachable(error), String(error)).toBe(true);
    expect(elapsedMs).toBeLessThan(2000 + 1000);
    proxy.resume();

    await waitUntil(() => pool.totalCount === pool.idleCount, 3000).catch(() => {});
    expect({ checkedOut: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }).toEqual({
      checkedOut: 0,
      waiting: 0,
    });
    // The backends whose sockets were ended roll back as they go; one still idle in a transaction holds its locks.
    const open = () =>
      queryDatabase<{ open: number }>(
        database.url,
        `select count(*)::int as open from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
      );
    expect((await open())[0]!.open).toBe(0);
    for (let index = 0; index < poolSize + 1; index++) await write();
  }, 30_000);
});

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}
