import { Cluster } from 'ioredis';
import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { seedQueue } from '../helpers/queues.js';
import { startLocalCluster, type LocalCluster } from '../helpers/redis-cluster.js';

/**
 * On a cluster BullMQ needs hash tags: either in the prefix (`{jobs}`: all
 * queues on one slot) or in each queue name (`{mail}` under `bull`: queues
 * spread over the masters). Both are covered.
 */
describe('queues on a 3-master Redis Cluster', () => {
  let cluster: LocalCluster;
  let client: Cluster;
  let app: TestApp;
  const queues: Queue[] = [];
  const seeders: Cluster[] = [];
  const spread = ['{alpha}', '{bravo}', '{charlie}', '{delta}', '{echo}', '{foxtrot}'];

  beforeAll(async () => {
    cluster = await startLocalCluster([7010, 7011, 7012]);
    client = new Cluster(cluster.ports.map((port) => ({ host: '127.0.0.1', port })));
    const connection = () => {
      const seeded = new Cluster(cluster.ports.map((port) => ({ host: '127.0.0.1', port })));
      seeders.push(seeded);
      return seeded;
    };
    for (const name of spread)
      queues.push(await seedQueue({ connection: connection(), prefix: 'bull' }, name, { waiting: 2 }));
    queues.push(
      await seedQueue({ connection: connection(), prefix: '{jobs}' }, 'mail', { completed: 3, failed: 2, waiting: 1 }),
    );
    app = await bootApp({
      env: {
        SERVICE_AUTHLESS: 'true',
        SERVICE_ENV_CONNECTIONS: 'true',
        SERVICE_REDIS_URL_GRID: cluster.url,
        SERVICE_REDIS_URL_GRID_PREFIX: 'bull,{jobs}',
        SERVICE_QUEUE_LIST_CACHE_MS: '0',
      },
    });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(queues.map((queue) => queue.close()));
    client?.disconnect();
    seeders.forEach((seeder) => {
      seeder.disconnect();
    });
    await app?.close();
    await cluster?.stop();
  });

  it('has the spread queues on more than one master (the premise of the next test)', async () => {
    await client.ping();
    const perMaster = await Promise.all(
      client
        .nodes('master')
        .map(async (node) => (await node.scan('0', 'MATCH', 'bull:*:meta', 'COUNT', 1000))[1].length),
    );
    expect(perMaster.filter((count) => count > 0).length).toBeGreaterThan(1);
  });

  it('discovers the queues of every master and under every prefix, with counts', async () => {
    const response = await request(`${app.api}/c/grid/queues?pageSize=100`);
    expect(response.status).toBe(200);
    expect(response.body.total).toBe(7);
    expect(response.body.queues.map((q: { name: string; prefix: string }) => `${q.prefix}/${q.name}`).sort()).toEqual(
      [...spread.map((name) => `bull/${name}`), '{jobs}/mail'].sort(),
    );
    const mail = response.body.queues.find((q: { name: string }) => q.name === 'mail');
    expect(mail.jobCounts).toMatchObject({ completed: 3, failed: 2, waiting: 1 });
    expect(
      response.body.queues.filter((q: { jobCounts: { waiting: number } }) => q.jobCounts.waiting === 2),
    ).toHaveLength(6);
  });

  it('reads jobs, a job and its logs under the second prefix', async () => {
    const page = await request(`${app.api}/c/grid/queues/mail/jobs?status=completed`);
    expect([page.status, page.body.total]).toEqual([200, 3]);
    const jobId = page.body.jobs[0].id;
    const detail = await request(`${app.api}/c/grid/queues/mail/jobs/${jobId}`);
    expect(detail.body).toMatchObject({ id: jobId, state: 'completed', logsCount: 0 });
    const logs = await request(`${app.api}/c/grid/queues/mail/jobs/${jobId}/logs`);
    expect(logs.body).toEqual({ logs: [], count: 0 });
    expect((await request(`${app.api}/c/grid/queues/nowhere/jobs/${jobId}`)).status).toBe(404);
  });

  it('reads, purges and deletes a queue on the cluster', async () => {
    expect((await request(`${app.api}/c/grid/queues/mail`)).body).toMatchObject({
      prefix: '{jobs}',
      jobCounts: { failed: 2 },
    });
    const purged = await request(`${app.api}/c/grid/queues/mail/purge`, {
      method: 'POST',
      body: { confirmName: 'mail', statuses: ['failed', 'waiting'] },
    });
    expect(purged.body).toMatchObject({ success: true, removedByStatus: { failed: 2, waiting: 1 } });
    const name = encodeURIComponent('{alpha}');
    expect(
      (
        await request(`${app.api}/c/grid/queues/${name}/obliterate`, {
          method: 'POST',
          body: { confirmName: '{alpha}' },
        })
      ).status,
    ).toBe(200);
    expect((await request(`${app.api}/c/grid/queues`)).body.total).toBe(6);
  });

  it('moves jobs between queues on different masters, each once (the cross-store path: no script spans two slots)', async () => {
    const [from, to] = [encodeURIComponent('{bravo}'), '{golf}'];
    const moved = await request(`${app.api}/c/grid/queues/${from}/jobs/move`, {
      method: 'POST',
      body: { to: { queueName: to }, status: 'waiting', all: true },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ succeeded: 2, failed: 0, done: true });
    expect(await client.llen('bull:{golf}:wait')).toBe(2);
    expect(await client.llen('bull:{bravo}:wait')).toBe(0);
    // The journal sits beside the target's keys, in its slot.
    expect(await client.hlen('bull:{golf}:bullpen-move-journal:grid:bull:{bravo}:')).toBe(2);
  });
});
