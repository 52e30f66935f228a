import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../helpers/app.js';
import { testEncryptionKey } from '../helpers/connections.js';
import { generateBadRequests } from './support/bad-requests.js';
import { listProblems } from './support/error-shape.js';
import { ExchangeLog, mapPooled, sendRaw, type Exchange } from './support/http-exchange.js';
import { readApiDescription, type ApiDescription } from './support/openapi-operations.js';
import { startOwnRedis, type OwnRedis } from './support/own-redis.js';
import { findSecret } from './support/secrets.js';
import { seedStore, type SeededStore } from './support/seed-store.js';
import { changedEntries, snapshotDatabase, snapshotRedis } from './support/store-snapshot.js';

const redisPort = 6420;
const password = 'bad-input-Pa55word';
const seed = 20240609;
/** A few thousand requests whatever the number of routes, so the file stays bounded as routes are added. */
const requestBudget = 2500;
/**
 * Tables that change on bad input by design: the audit trail (issue 7) records
 * every mutation, refused ones included.
 */
const appendOnlyTables = ['audit_event'];
/** The queue index: a copy of the store's queue names that every discovery scan rewrites, not data a request owns. */
const derivedTables = ['queue_index_entry', 'queue_discovery_scan'];
/** Small pool: two cores are shared with the other test files. */
const concurrency = 6;

describe('bad input on every route of the OpenAPI document', () => {
  let redis: OwnRedis;
  let app: TestApp;
  let seeded: SeededStore;
  let description: ApiDescription;
  let connectionId: string;
  let exchanges: Exchange[] = [];
  let redisBefore: Record<string, string>;
  let databaseBefore: Record<string, string[]>;
  const log = new ExchangeLog();

  const databaseUrl = () => (app.config.persistence.mode === 'server' ? app.config.persistence.databaseUrl : '');

  beforeAll(async () => {
    redis = await startOwnRedis(redisPort, password);
    seeded = await seedStore(redis.connection);
    app = await bootApp({
      persistence: 'server',
      env: { SERVICE_AUTHLESS: 'true', SERVICE_ENCRYPTION_KEY: testEncryptionKey, DISABLE_RATE_LIMIT: 'true' },
    });
    const created = await log.fetch(`${app.api}/connections`, {
      method: 'POST',
      body: { name: 'main store', url: redis.url },
    });
    expect(created.status).toBe(201);
    connectionId = created.body.id;
    description = await readApiDescription(app.api);
    // First reads may warm caches; the baseline is what valid reads leave behind.
    for (const operation of description.operations.filter((candidate) => candidate.method === 'GET')) {
      const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) =>
        encodeURIComponent(validPathValues()[name] ?? 'x'),
      );
      log.record(await sendRaw(new URL(app.url), { label: 'warm-up', method: 'GET', path: `/api${path}` }));
    }
    const client = redis.client();
    redisBefore = await snapshotRedis(client);
    client.disconnect();
    databaseBefore = await snapshotDatabase(databaseUrl());
  });

  afterAll(async () => {
    await app?.close();
    await redis?.stop();
  });

  function validPathValues(): Record<string, string> {
    return {
      connectionId,
      id: connectionId,
      queueName: seeded.queueName,
      jobId: seeded.failedJobId,
      schedulerId: seeded.schedulerId,
      key: seeded.plainKeys[1]!,
    };
  }

  it('answers a few thousand generated requests below 500, every error as { message, code }', {
    timeout: 90_000,
  }, async () => {
    const requests = generateBadRequests(description, {
      basePath: '/api',
      validPathValues: validPathValues(),
      seed,
      perOperation: Math.min(90, Math.floor(requestBudget / description.operations.length)),
      maxBodyBytes: 1024 * 1024,
    });
    expect(requests.length).toBeGreaterThan(2000);
    expect(requests.length).toBeLessThan(requestBudget + 400);
    const origin = new URL(app.url);
    exchanges = await mapPooled(requests, concurrency, async (request) => log.record(await sendRaw(origin, request)));
    expect(listProblems(exchanges)).toEqual([]);
    // The generator reaches validation, the body limits and the routing, not one layer only.
    const statuses = new Set(exchanges.map((exchange) => exchange.status));
    for (const status of [400, 404, 413]) expect(statuses).toContain(status);
  });

  it('stays up', async () => {
    const health = await log.fetch(`${app.api}/health`);
    expect(health).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('leaves every key of the store and every row of the database as they were', async () => {
    const client = redis.client();
    const redisAfter = await snapshotRedis(client);
    client.disconnect();
    expect(Object.keys(redisBefore).length).toBeGreaterThan(20);
    expect(changedEntries(redisBefore, redisAfter)).toEqual([]);
    const databaseAfter = await snapshotDatabase(databaseUrl());
    expect(databaseBefore.connection).toHaveLength(1);
    expect(
      changedEntries(databaseBefore, databaseAfter).filter(
        (table) => ![...appendOnlyTables, ...derivedTables].includes(table),
      ),
    ).toEqual([]);
  });

  it('lets no __proto__ or constructor.prototype in a body pollute the service process', () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never shows the store password in a response or the log', () => {
    expect(log.exchanges.length).toBeGreaterThan(2000);
    expect(findSecret(password, log.exchanges, app.logs)).toEqual([]);
  });
});
