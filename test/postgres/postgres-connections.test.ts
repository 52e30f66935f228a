import { LATEST_SCHEMA_VERSION } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { readConnectionRows } from '../helpers/connections.js';
import { migrateBullmqSchema } from '../helpers/postgres-queues.js';
import { createTestDatabase, queryDatabase, type TestDatabase } from '../helpers/postgres.js';

/** PostgreSQL connections (BullMQ's PostgreSQL backend): saved, tested and declared in the environment. */
describe('PostgreSQL connections', () => {
  let app: TestApp;
  let migrated: TestDatabase;
  let empty: TestDatabase;
  const api = (path: string, method = 'GET', body?: unknown) => request(`${app.api}${path}`, { method, body });
  beforeAll(async () => {
    [migrated, empty] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    await migrateBullmqSchema(migrated.url);
    app = await bootApp({ persistence: 'server', env: { SERVICE_AUTHLESS: 'true', SERVICE_QUEUE_LIST_CACHE_MS: '0' } });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await Promise.all([migrated?.drop(), empty?.drop()]);
  });

  it('tests a URL: PostgreSQL and BullMQ schema versions, 400 when the schema is missing or too new', async () => {
    const tested = await api('/connections/test', 'POST', { url: migrated.url });
    expect(tested).toMatchObject({
      status: 200,
      body: { ok: true, redisVersion: null, mode: 'standalone', schemaVersion: LATEST_SCHEMA_VERSION },
    });
    expect(tested.body.postgresVersion).toMatch(/^\d+/);
    expect(await api('/connections/test', 'POST', { url: empty.url })).toMatchObject({
      status: 400,
      body: { code: 'BULLMQ_SCHEMA_MISSING', schema: 'bullmq' },
    });
    expect(await api('/connections/test', 'POST', { url: migrated.url, schema: 'elsewhere' })).toMatchObject({
      status: 400,
      body: { code: 'BULLMQ_SCHEMA_MISSING' },
    });
    const unreachable = await api('/connections/test', 'POST', { url: 'postgres://someone:secret-pw@127.0.0.1:1/db' });
    expect(unreachable.body).toEqual({
      ok: false,
      latencyMs: null,
      redisVersion: null,
      mode: 'standalone',
      error: 'no PostgreSQL server answered at 127.0.0.1:1',
    });
    expect(JSON.stringify(app.logs)).not.toContain('secret-pw');
  });

  it('refuses a schema migrated by a newer BullMQ major (400 BULLMQ_SCHEMA_UNSUPPORTED)', async () => {
    const newer = await createTestDatabase();
    try {
      await migrateBullmqSchema(newer.url);
      await queryDatabase(
        newer.url,
        `insert into bullmq.migration (version, name, min_client_version) values (999, 'future', 99)`,
      );
      expect(await api('/connections/test', 'POST', { url: newer.url })).toMatchObject({
        status: 400,
        body: { code: 'BULLMQ_SCHEMA_UNSUPPORTED', minimumClientVersion: 99 },
      });
    } finally {
      await newer.drop();
    }
  });

  it('saves a postgres:// connection sealed at rest, with a schema instead of a prefix', async () => {
    const created = await api('/connections', 'POST', { name: 'pg', url: migrated.url });
    expect(created).toMatchObject({
      status: 201,
      body: { kind: 'postgres', schema: 'bullmq', prefix: 'bullmq', prefixes: ['bullmq'], cluster: false },
    });
    const rows = await readConnectionRows(app);
    expect(JSON.stringify(rows)).not.toContain(migrated.name);
    expect((await api('/c/pg/queues')).body).toMatchObject({ total: 0, queues: [] });
    expect((await api(`/connections/${created.body.id}`, 'PATCH', { prefix: 'bull' })).status).toBe(400);
    expect((await api('/connections', 'POST', { name: 'r', url: 'redis://127.0.0.1:6379', schema: 'x' })).status).toBe(
      400,
    );
    expect(
      (await api('/connections', 'POST', { name: 'r', url: 'redis://127.0.0.1:6379', migrate: true })).status,
    ).toBe(400);
    expect(
      (await api('/connections', 'POST', { name: 'tls', url: `${migrated.url}?sslmode=require` })).body.tls,
    ).toEqual({ enabled: true, allowSelfSigned: false });
  });

  it("never migrates a schema unless asked: routes answer 400 BULLMQ_SCHEMA_MISSING; migrate: true on create runs BullMQ's migrations", async () => {
    const plain = await api('/connections', 'POST', { name: 'bare', url: empty.url, schema: 'jobs' });
    expect(plain.status).toBe(201);
    expect(await api('/c/bare/queues')).toMatchObject({
      status: 400,
      body: { code: 'BULLMQ_SCHEMA_MISSING', schema: 'jobs' },
    });
    expect(
      await queryDatabase(empty.url, `select 1 from information_schema.schemata where schema_name = 'jobs'`),
    ).toEqual([]);
    const migratedOnCreate = await api('/connections', 'POST', {
      name: 'made',
      url: empty.url,
      schema: 'made',
      migrate: true,
    });
    expect(migratedOnCreate).toMatchObject({ status: 201, body: { schema: 'made' } });
    expect((await api('/c/made/queues/mail/jobs', 'POST', { name: 'hello' })).status).toBe(201);
    expect((await api('/c/made/queues')).body.queues).toMatchObject([
      { name: 'mail', prefix: 'made', jobCounts: { waiting: 1 } },
    ]);
    const [ledger] = await queryDatabase<{ version: number }>(
      empty.url,
      'select max(version)::int as version from made.migration',
    );
    expect(ledger!.version).toBe(LATEST_SCHEMA_VERSION);
  });
});

describe('SERVICE_POSTGRES_URL_<NAME>', () => {
  const base = {
    NODE_ENV: 'test',
    SERVICE_AUTHLESS: 'true',
    SERVICE_ENV_CONNECTIONS: 'true',
    SERVICE_EMBEDDED_DIR: '/tmp/unused',
  };

  it('declares a PostgreSQL connection with _ENVIRONMENT, _PROTECTION and _SCHEMA', () => {
    const config = loadConfig({
      ...base,
      SERVICE_POSTGRES_URL_JOBS: 'postgresql://bullmq:pw@db.internal:5432/app?sslmode=verify-full',
      SERVICE_POSTGRES_URL_JOBS_ENVIRONMENT: 'production',
      SERVICE_POSTGRES_URL_JOBS_PROTECTION: 'read-only',
      SERVICE_POSTGRES_URL_JOBS_SCHEMA: 'queues',
      SERVICE_REDIS_URL_CACHE: 'redis://127.0.0.1:6379',
    });
    expect(
      config.environmentConnections.map(({ id, environment, prefixes, protection, tls, cluster }) => ({
        id,
        environment,
        prefixes,
        protection,
        tls,
        cluster,
      })),
    ).toEqual([
      {
        id: 'cache',
        environment: 'development',
        prefixes: ['bull'],
        protection: 'none',
        tls: { enabled: false, allowSelfSigned: false },
        cluster: false,
      },
      {
        id: 'jobs',
        environment: 'production',
        prefixes: ['queues'],
        protection: 'read-only',
        tls: { enabled: true, allowSelfSigned: false },
        cluster: false,
      },
    ]);
  });

  it('refuses one NAME for two connections and a schema that is no identifier', () => {
    expect(() =>
      loadConfig({ ...base, SERVICE_POSTGRES_URL_MAIN: 'postgres://h/db', SERVICE_REDIS_URL_MAIN: 'redis://h' }),
    ).toThrow(/both name connection "main"/);
    expect(() =>
      loadConfig({ ...base, SERVICE_POSTGRES_URL_MAIN: 'postgres://h/db', SERVICE_POSTGRES_URL_MAIN_SCHEMA: 'a-b' }),
    ).toThrow(/_SCHEMA/);
  });
});
