import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../helpers/app.js';
import { testEncryptionKey } from '../helpers/connections.js';
import { waitFor } from '../helpers/jobs.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { listProblems } from './support/error-shape.js';
import { ExchangeLog } from './support/http-exchange.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';

/**
 * The shared Postgres cannot be stopped (other files use it), so the service
 * reaches its database through a proxy in this process that the test cuts.
 */
describe('the database becomes unreachable in server mode', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let app: TestApp;
  const log = new ExchangeLog();
  const timed = async (url: string, init?: Parameters<ExchangeLog['fetch']>[1]) => {
    const started = performance.now();
    const response = await log.fetch(url, init);
    return { ...response, ms: performance.now() - started };
  };
  const connectionBody = (name: string) => ({ name, url: 'redis://127.0.0.1:6379/0' });

  beforeAll(async () => {
    database = await createTestDatabase();
    proxy = await startTcpProxy({ host: '127.0.0.1', port: 5432 });
    const proxiedUrl = database.url.replace('127.0.0.1:5432', `127.0.0.1:${proxy.port}`);
    app = await bootApp({
      persistence: 'server',
      databaseUrl: proxiedUrl,
      env: { SERVICE_AUTHLESS: 'true', SERVICE_ENCRYPTION_KEY: testEncryptionKey },
    });
  });

  afterAll(async () => {
    await app?.close();
    await proxy?.close();
    await database?.drop();
  });

  let savedId = '';

  it('serves persistence routes while the database is reachable', async () => {
    const created = await log.fetch(`${app.api}/connections`, { method: 'POST', body: connectionBody('before') });
    expect(created.status).toBe(201);
    savedId = created.body.id;
    expect((await log.fetch(`${app.api}/health`)).body.status).toBe('ok');
  });

  it('answers persistence routes with 503 DATABASE_UNAVAILABLE, quickly, and health says degraded', async () => {
    await proxy.cut();
    for (const call of [
      () => timed(`${app.api}/connections`),
      () => timed(`${app.api}/connections`, { method: 'POST', body: connectionBody('during') }),
      () => timed(`${app.api}/connections/${savedId}`),
      () => timed(`${app.api}/connections/${savedId}`, { method: 'DELETE' }),
    ]) {
      const response = await call();
      expect(response.status).toBe(503);
      expect(response.body).toMatchObject({ code: 'DATABASE_UNAVAILABLE', message: expect.any(String) });
      expect(response.ms).toBeLessThan(4000);
    }
    const health = await log.fetch(`${app.api}/health`);
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'degraded', checks: { persistence: { ok: false, mode: 'server' } } });
  });

  it('recovers once the database is back, without restarting the service', async () => {
    await proxy.restore();
    await waitFor(
      async () => (await log.fetch(`${app.api}/connections`)).status === 200,
      15_000,
      'the database routes to recover',
    );
    expect((await log.fetch(`${app.api}/connections`, { method: 'POST', body: connectionBody('after') })).status).toBe(
      201,
    );
    const names = (await log.fetch(`${app.api}/connections`)).body.connections.map(
      (connection: { name: string }) => connection.name,
    );
    expect(names.sort()).toEqual(['after', 'before']);
    expect((await log.fetch(`${app.api}/health`)).body.status).toBe('ok');
  });

  it('answered nothing but the one 503 code and the error shape', () => {
    // The scan covers what the tests above sent: the outage's four 503s and the answers around them.
    expect(log.exchanges.filter((exchange) => exchange.status === 503)).toHaveLength(4);
    expect(
      log.exchanges.filter((exchange) => exchange.status >= 200 && exchange.status < 300).length,
    ).toBeGreaterThanOrEqual(6);
    expect(listProblems(log.exchanges, { unavailableCode: 'DATABASE_UNAVAILABLE' })).toEqual([]);
  });
});
