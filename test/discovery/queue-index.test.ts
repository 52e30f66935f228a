import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanQueueNames } from '../../server/bullmq/list-queue-names.js';
import { preloadQueueIndex } from '../../server/discovery/preload-index.js';
import { QueueIndex } from '../../server/discovery/queue-index.js';
import { createLogger } from '../../server/logger.js';
import { envConnectionCatalog } from '../../server/stores/connection-catalog.js';
import { StoreRegistry } from '../../server/stores/store-registry.js';
import { bootApp, request, testAuthSecret, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { testEncryptionKey } from '../helpers/connections.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startServiceProcess } from '../helpers/process.js';
import { storeFixture, type StoreFixture } from '../helpers/stores.js';

async function createQueues(fixture: StoreFixture, names: string[]): Promise<void> {
  const pipeline = fixture.redis.pipeline();
  for (const name of names)
    pipeline.hset(`${fixture.prefix}:${name}:meta`, 'opts.maxLenEvents', '10000', 'version', 'bullmq:6.7.0');
  await pipeline.exec();
}

const listedNames = (body: { queues: Array<{ name: string }> }) => body.queues.map((queue) => queue.name);

describe('GET and POST /c/{id}/discovery', () => {
  const fixture = storeFixture();
  let app: TestApp;
  beforeAll(async () => {
    await createQueues(fixture, ['alpha', 'beta']);
    app = await bootApp({ env: { ...fixture.env, SERVICE_QUEUE_LIST_CACHE_MS: '600000' } });
  });
  afterAll(async () => {
    await app.close();
    await fixture.cleanup();
  });

  it('reports the last scan, the queue count and completeness', async () => {
    await request(`${app.api}/c/main/queues`);
    const { status, body } = await request(`${app.api}/c/main/discovery`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ queues: 2, scanning: false, complete: true, incompleteReason: null });
    expect(Date.parse(body.lastScanAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(body.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('starts a scan with POST (202) that finds a queue made behind the service’s back', async () => {
    await createQueues(fixture, ['gamma']);
    expect(listedNames((await request(`${app.api}/c/main/queues`)).body)).toEqual(['alpha', 'beta']);
    const started = await request(`${app.api}/c/main/discovery`, { method: 'POST', body: {} });
    expect(started.status).toBe(202);
    expect(started.body.scanning).toBe(true);
    await waitFor(async () => (await request(`${app.api}/c/main/discovery`)).body.queues === 3, 10_000, 'the scan');
    expect(listedNames((await request(`${app.api}/c/main/queues`)).body)).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('answers 404 for an unknown connection and is documented', async () => {
    expect((await request(`${app.api}/c/nope/discovery`)).status).toBe(404);
    const { body } = await request(`${app.api}/openapi.json`);
    expect(Object.keys(body.paths['/c/{connectionId}/discovery'])).toEqual(['get', 'post']);
    expect(Object.keys(body.paths['/c/{connectionId}/discovery'].post.responses)).toContain('202');
  });
});

describe('a scan cut short by the SCAN cap', () => {
  const fixture = storeFixture();
  afterAll(() => fixture.cleanup());

  it('says it is incomplete and why, instead of passing for complete', async () => {
    await createQueues(
      fixture,
      Array.from({ length: 50 }, (_, i) => `q${i}`),
    );
    const noise = fixture.redis.pipeline();
    for (let i = 0; i < 2000; i++) noise.set(`${fixture.prefix}:noise:${i}`, 'x');
    await noise.exec();
    const store = { client: fixture.redis, prefixes: [fixture.prefix] };
    const cut = await scanQueueNames(store, { count: 10, maxCalls: 3 });
    expect(cut.incomplete).toEqual([
      { prefix: fixture.prefix, reason: expect.stringMatching(/^SCAN stopped after 3 calls of COUNT 10 /) },
    ]);
    expect(cut.refs.length).toBeLessThan(50);
    const whole = await scanQueueNames(store);
    expect([whole.refs.length, whole.incomplete]).toEqual([50, []]);
  });

  it('gives back the known refs (sorted) for the queues it finds again, new objects only for new queues', async () => {
    const store = { client: fixture.redis, prefixes: [fixture.prefix] };
    const known = (await scanQueueNames(store)).refs.filter((_, i) => i % 2 === 0);
    const again = await scanQueueNames(store, undefined, known);
    expect(again.refs.length).toBe(50);
    expect(again.refs.filter((ref) => known.includes(ref))).toHaveLength(known.length);
    expect(again.refs.map((ref) => ref.name)).toEqual([...again.refs.map((ref) => ref.name)].sort());
  });
});

describe('preloading at startup', () => {
  const fixture = storeFixture();
  const stores = new StoreRegistry({ logger: createLogger({ level: 'silent' }) });
  afterAll(async () => {
    await stores.closeAll();
    await fixture.cleanup();
  });

  it("connects each environment connection's store and reads its persisted index, without scanning", async () => {
    const now = new Date();
    const connection = {
      id: 'main',
      organizationId: null,
      name: 'main',
      url: 'redis://127.0.0.1:6379',
      environment: 'development' as const,
      prefixes: [fixture.prefix],
      isDefault: true,
      tls: { enabled: false, allowSelfSigned: false },
      cluster: false,
      protection: 'none' as const,
      source: 'env' as const,
      createdAt: now,
      updatedAt: now,
    };
    const loaded: string[] = [];
    let scans = 0;
    const queueDirectory = new QueueIndex({
      ttlMs: 600_000,
      store: {
        load: async (id) => {
          loaded.push(id);
          return { refs: [{ prefix: fixture.prefix, name: 'kept' }], scans: [] };
        },
        save: async () => undefined,
      },
      scan: async () => {
        scans++;
        return { refs: [], incomplete: [] };
      },
    });
    await preloadQueueIndex({
      connections: envConnectionCatalog([connection], () => 'org'),
      stores,
      queueDirectory,
      logger: createLogger({ level: 'silent' }),
    });
    expect([loaded, scans, stores.openHandles()[0]?.client.status]).toEqual([['main'], 0, 'ready']);
  });
});

/** Runs the service as a child process, lists, stops it with SIGTERM, and gives back its port's base URL per run. */
async function runService(env: Record<string, string>, work: (api: string) => Promise<void>): Promise<void> {
  const service = startServiceProcess({ ...env, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'test' });
  try {
    const line = await service.waitForOutput(/"url":"http:\/\/127\.0\.0\.1:\d+"/, 60_000);
    await work(`${JSON.parse(`{${line}}`).url}/api`);
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
  }
}

describe.each(['embedded', 'server'] as const)('the queue index across a real restart (%s persistence)', (mode) => {
  const fixture = storeFixture();
  let database: TestDatabase | undefined;
  let directory: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'bullpen-index-'));
    if (mode === 'server') database = await createTestDatabase();
    const persistence: Record<string, string> = database
      ? // Server persistence refuses to start without an encryption key (issue 14).
        { DATABASE_URL: database.url, AUTH_SECRET: testAuthSecret, SERVICE_ENCRYPTION_KEY: testEncryptionKey }
      : { SERVICE_EMBEDDED_DIR: directory };
    env = { ...(fixture.env as Record<string, string>), ...persistence, SERVICE_QUEUE_LIST_CACHE_MS: '600000' };
    await createQueues(fixture, ['kept', 'gone']);
  });
  afterAll(async () => {
    await fixture.cleanup();
    await database?.drop();
    await rm(directory, { recursive: true, force: true });
  });

  // That the first list does not wait for the scan is checked in queue-index-restart.test.ts (a scan that never ends);
  // here the startup warm-up lists once, so the reconciling scan of this small store may be over before the first request.
  it('answers the first list after a restart from the index or the reconciled index, then reconciles in the background', async () => {
    await runService(env, async (api) => {
      expect(listedNames((await request(`${api}/c/main/queues`)).body)).toEqual(['gone', 'kept']);
    });
    // While the service is down, one queue disappears and another appears.
    await fixture.redis.del(`${fixture.prefix}:gone:meta`);
    await createQueues(fixture, ['new']);
    await runService(env, async (api) => {
      const first = await request(`${api}/c/main/queues`);
      expect(['gone,kept', 'kept,new']).toContain(listedNames(first.body).join());
      await waitFor(
        async () => listedNames((await request(`${api}/c/main/queues`)).body).join() === 'kept,new',
        10_000,
        'the reconciling scan',
      );
      expect((await request(`${api}/c/main/discovery`)).body).toMatchObject({ queues: 2, complete: true });
    });
  });
});
