import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectionParams } from '../../contracts/params.js';
import { router } from '../../server/trpc/init.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { testEncryptionKey } from '../helpers/connections.js';
import { startRedisServer, type RedisServer } from '../helpers/redis-server.js';
import { serveTestRouter } from '../helpers/test-router.js';

const port = 6380;
const password = 'outage-pa55word';

/** A connection-scoped route of the test's own, built like every `/c/:connectionId` route. */
const probeRouter = router({
  waiting: connectionProcedure
    .meta({ permission: 'queues.read', openapi: { method: 'GET', path: '/c/{connectionId}/waiting' } })
    .input(connectionParams)
    .output(z.object({ waiting: z.number() }))
    .query(async ({ ctx }) => ({ waiting: await (await ctx.store.queue('jobs')).getWaitingCount() })),
});

describe('a store that goes down and comes back', () => {
  let directory: string;
  let redis: RedisServer;
  let app: TestApp;
  let probe: Awaited<ReturnType<typeof serveTestRouter>>;
  let connectionId: string;

  const waiting = () => request(`${probe.api}/c/${connectionId}/waiting`);
  const timed = async <T>(work: () => Promise<T>) => {
    const started = performance.now();
    const result = await work();
    return { result, ms: performance.now() - started };
  };

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'bullpen-outage-'));
    redis = await startRedisServer(['--port', String(port), '--requirepass', password], directory);
    app = await bootApp({ env: { SERVICE_AUTHLESS: 'true', SERVICE_ENCRYPTION_KEY: testEncryptionKey } });
    const created = await request(`${app.api}/connections`, {
      method: 'POST',
      body: { name: 'flaky store', url: `redis://:${password}@127.0.0.1:${port}/0` },
    });
    connectionId = created.body.id;
    probe = await serveTestRouter(app.services, probeRouter);
  });

  afterAll(async () => {
    probe?.close();
    await app?.close();
    await redis?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('serves connection-scoped routes while the store is up', async () => {
    const queue = new Queue('jobs', { connection: { host: '127.0.0.1', port, password } });
    await queue.add('one', {});
    await queue.close();
    expect(await waiting()).toMatchObject({ status: 200, body: { waiting: 1 } });
  });

  it('answers 503 STORE_UNAVAILABLE fast, naming the connection and never its password, when it stops', async () => {
    await redis.stop();
    for (let attempt = 0; attempt < 3; attempt++) {
      const { result, ms } = await timed(waiting);
      expect(result.status).toBe(503);
      expect(result.body).toMatchObject({
        code: 'STORE_UNAVAILABLE',
        connectionId,
        message: expect.stringContaining('"flaky store"'),
      });
      expect(ms).toBeLessThan(2500);
    }
    const { result: tested, ms } = await timed(() =>
      request(`${app.api}/connections/test`, { method: 'POST', body: { id: connectionId } }),
    );
    expect(tested.status).toBe(200);
    expect(tested.body).toEqual({
      ok: false,
      latencyMs: null,
      redisVersion: null,
      mode: 'standalone',
      error: `no Redis server answered at 127.0.0.1:${port}`,
    });
    expect(ms).toBeLessThan(3000);
    expect(JSON.stringify(app.logs)).not.toContain(password);
  });

  it('succeeds again once the store is back, without restarting the service', async () => {
    await redis.restart();
    let last = await waiting();
    for (let attempt = 0; attempt < 40 && last.status !== 200; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      last = await waiting();
    }
    // Started without persistence: the job is gone, the store answers.
    expect(last).toMatchObject({ status: 200, body: { waiting: 0 } });
    expect((await request(`${app.api}/connections/test`, { method: 'POST', body: { id: connectionId } })).body.ok).toBe(
      true,
    );
  });

  it('answers 503 too when the store refuses the password, and the test route says why', async () => {
    const wrong = await request(`${app.api}/connections`, {
      method: 'POST',
      body: { name: 'wrong password', url: `redis://:not-${password}@127.0.0.1:${port}/0` },
    });
    const { result, ms } = await timed(() => request(`${probe.api}/c/${wrong.body.id}/waiting`));
    expect(result.status).toBe(503);
    expect(result.body.message).toBe(
      'The store of connection "wrong password" is unavailable: authentication was refused',
    );
    expect(ms).toBeLessThan(2500);
    const tested = await request(`${app.api}/connections/test`, {
      method: 'POST',
      body: { url: `redis://:not-${password}@127.0.0.1:${port}` },
    });
    expect(tested.body).toMatchObject({ ok: false, error: 'authentication was refused' });
    expect(JSON.stringify([result.body, tested.body, app.logs])).not.toContain(password);
  });
});
