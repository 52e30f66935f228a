import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { queueParams } from '../../contracts/params.js';
import { router } from '../../server/trpc/init.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { testEncryptionKey } from '../helpers/connections.js';
import { type LocalCluster, startLocalCluster } from '../helpers/redis-cluster.js';
import { serveTestRouter } from '../helpers/test-router.js';

const ports = [7000, 7001, 7002];
const seeds = ports.map((port) => `redis://127.0.0.1:${port}`).join(',');

/** Reads a queue through `ctx.store`, as every connection-scoped route does. */
const queueRouter = router({
  counts: connectionProcedure
    .meta({
      permission: 'queues.read',
      openapi: { method: 'GET', path: '/c/{connectionId}/queues/{queueName}/counts' },
    })
    .input(queueParams.extend({ prefix: z.string().optional() }))
    .output(z.object({ waiting: z.number(), delayed: z.number(), masters: z.number() }))
    .query(async ({ ctx, input }) => {
      const counts = await (await ctx.store.queue(input.queueName, input.prefix)).getJobCounts('waiting', 'delayed');
      const masters = ctx.store.client instanceof Cluster ? ctx.store.client.nodes('master').length : 1;
      return { waiting: counts.waiting ?? 0, delayed: counts.delayed ?? 0, masters };
    }),
});

describe('a 3-master Redis Cluster as a saved connection', () => {
  let localCluster: LocalCluster | undefined;
  let app: TestApp;
  let routes: Awaited<ReturnType<typeof serveTestRouter>>;
  let connectionId: string;

  beforeAll(async () => {
    localCluster = await startLocalCluster(ports);
    app = await bootApp({ env: { SERVICE_AUTHLESS: 'true', SERVICE_ENCRYPTION_KEY: testEncryptionKey } });
    const created = await request(`${app.api}/connections`, {
      method: 'POST',
      body: { name: 'cluster', url: seeds, prefixes: ['{bull}', 'jobs'] },
    });
    expect(created.body).toMatchObject({ cluster: true, prefixes: ['{bull}', 'jobs'], url: seeds });
    connectionId = created.body.id;
    routes = await serveTestRouter(app.services, queueRouter);
  });

  afterAll(async () => {
    routes?.close();
    await app?.close();
    await localCluster?.stop();
  });

  it('reports cluster mode on the connection test', async () => {
    const { body } = await request(`${app.api}/connections/test`, { method: 'POST', body: { id: connectionId } });
    expect(body).toMatchObject({ ok: true, mode: 'cluster', redisVersion: expect.stringMatching(/^\d/) });
  });

  it('adds and counts jobs through ctx.store under a hash-tagged prefix', async () => {
    const connection = (await app.services.connections.find(connectionId))!;
    const store = app.services.stores.handle(connection);
    const queue = await store.queue('emails');
    await queue.addBulk(Array.from({ length: 5 }, (_, n) => ({ name: 'send', data: { n } })));
    await queue.add('later', {}, { delay: 60_000 });
    const { status, body } = await request(`${routes.api}/c/${connectionId}/queues/emails/counts`);
    expect(status).toBe(200);
    expect(body).toEqual({ waiting: 5, delayed: 1, masters: 3 });
  });

  it('spreads queues with hash-tagged names over every master and reads each back', async () => {
    const store = app.services.stores.handle((await app.services.connections.find(connectionId))!);
    const cluster = store.client as Cluster;
    await cluster.ping();
    // One queue name per master: hash tags whose slot a different master serves.
    const byMaster = new Map<string, string>();
    for (let n = 0; byMaster.size < 3 && n < 200; n++) {
      const name = `{q${n}}`;
      const slot = Number(await cluster.call('cluster', 'keyslot', `jobs:${name}:wait`));
      const master = cluster.slots[slot]![0]!;
      if (!byMaster.has(master)) byMaster.set(master, name);
    }
    expect(byMaster.size).toBe(3);
    for (const [index, name] of [...byMaster.values()].entries()) {
      await (await store.queue(name, 'jobs')).addBulk(
        Array.from({ length: index + 1 }, () => ({ name: 'job', data: {} })),
      );
    }
    for (const [index, name] of [...byMaster.values()].entries()) {
      const { body } = await request(
        `${routes.api}/c/${connectionId}/queues/${encodeURIComponent(name)}/counts?prefix=jobs`,
      );
      expect(body.waiting).toBe(index + 1);
    }
    const sizes = await Promise.all(cluster.nodes('master').map((node) => node.dbsize()));
    expect(sizes.every((size) => size > 0)).toBe(true);
  });
});
