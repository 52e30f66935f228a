import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Queue, Worker } from 'bullmq';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { spawnRedis, type SpawnedRedis } from '../helpers/spawn-redis.js';

const ports = [6401, 6402, 6403];
const run = promisify(execFile);

/** A 3-master cluster on this suite's reserved ports; BullMQ needs a hash-tagged prefix there. */
describe('observability routes on a Redis Cluster', () => {
  const prefix = '{obs}';
  let dir: string;
  let nodes: SpawnedRedis[] = [];
  let app: TestApp;
  let cluster: Cluster;
  let queue: Queue;
  let worker: Worker;
  let workerConnection: Cluster;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'bullpen-cluster-'));
    nodes = await Promise.all(
      ports.map((port) =>
        spawnRedis(port, ['--cluster-enabled', 'yes', '--cluster-config-file', path.join(dir, `nodes-${port}.conf`)]),
      ),
    );
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    for (let attempt = 0; attempt < 100; attempt++) {
      const { stdout } = await run('redis-cli', ['-p', String(ports[0]), 'cluster', 'info']);
      if (stdout.includes('cluster_state:ok')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const url = ports.map((port) => `redis://127.0.0.1:${port}`).join(',');
    app = await bootApp({
      env: {
        SERVICE_AUTHLESS: 'true',
        SERVICE_ENV_CONNECTIONS: 'true',
        SERVICE_REDIS_URL_CL: url,
        SERVICE_REDIS_URL_CL_PREFIX: prefix,
      },
    });
    cluster = new Cluster(ports.map((port) => ({ host: '127.0.0.1', port })));
    queue = new Queue('orders', { connection: cluster, prefix });
    await queue.addBulk([
      { name: 'a', data: {} },
      { name: 'b', data: {} },
    ]);
    await queue.upsertJobScheduler('tick', { every: 600_000 }, { name: 'tick' });
    workerConnection = new Cluster(ports.map((port) => ({ host: '127.0.0.1', port })));
    worker = new Worker('other', async () => 'ok', { connection: workerConnection, prefix, name: 'w' });
    await worker.waitUntilReady();
    // Plain keys spread over the masters (different hash slots).
    for (let index = 0; index < 30; index++) await cluster.set(`plain:${index}`, String(index));
  }, 60_000);
  afterAll(async () => {
    await worker?.close();
    workerConnection?.disconnect();
    await queue?.close();
    cluster?.disconnect();
    await app?.close();
    await Promise.all(nodes.map((node) => node.stop()));
    await rm(dir, { recursive: true, force: true });
  });

  it('summarises connection metrics and reads store facts from every master', async () => {
    const { status, body } = await request(`${app.api}/c/cl/metrics`);
    expect(status).toBe(200);
    expect(body.queues.map((entry: any) => entry.queueName)).toEqual(['orders', 'other']);
    expect(body.totals.waiting).toBe(3);
    expect(body.store).toMatchObject({ mode: 'cluster', nodes: 3 });
  });

  it('serves queue metrics, schedulers and workers', async () => {
    const metrics = await request(`${app.api}/c/cl/queues/orders/metrics?includePrometheus=1`);
    expect(metrics.status).toBe(200);
    expect(metrics.body.counts.waiting).toBe(3);
    expect(metrics.body.state.schedulers).toBe(1);
    const schedulers = await request(`${app.api}/c/cl/scheduled-jobs`);
    expect(schedulers.body.schedulers.map((scheduler: any) => scheduler.id)).toEqual(['tick']);
    const workers = await request(`${app.api}/c/cl/workers`);
    expect(workers.body.byQueue).toEqual({ other: 1 });
  });

  it('searches keys on every master with a cursor that names the node', async () => {
    const found: string[] = [];
    let cursor = '0';
    for (let page = 0; page < 100; page++) {
      const { body } = await request(
        `${app.api}/c/cl/store-keys/search?pattern=plain:*&count=5&cursor=${encodeURIComponent(cursor)}`,
      );
      found.push(...body.keys.map((key: any) => key.key));
      cursor = body.cursor;
      if (body.done) break;
    }
    expect(new Set(found).size).toBe(30);
    const value = await request(`${app.api}/c/cl/store-keys/value/plain%3A7`);
    expect(value.body.value).toBe(7);
  });

  it('exports every queue of the cluster to Prometheus', async () => {
    const text = await (await fetch(`${app.api}/prometheus`)).text();
    expect(text).toContain(`bullmq_job_count{queue="orders",state="waiting",connection="cl",prefix="${prefix}"} 3`);
    expect(text).toContain('bullpen_store_up{connection="cl"} 1');
  });
});
