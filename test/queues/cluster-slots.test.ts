import type { Queue } from 'bullmq';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { figures, readQueueFigures } from '../../server/bullmq/queue-figures.js';
import { keySlot } from '../../server/bullmq/key-slot.js';
import { queueKey, type QueueRef } from '../../server/bullmq/queue-key.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { seedQueue } from '../helpers/queues.js';
import { startLocalCluster, type LocalCluster } from '../helpers/redis-cluster.js';

/**
 * Bulk actions and moves across slots of a 3-master cluster: queues spread by hash-tagged names,
 * queues under a hash-tagged prefix, and one that BullMQ itself cannot run there (a plain name under a
 * plain prefix: its keys in different slots), on which every route answers without a 500.
 */
describe('bulk actions and moves across the slots of a Redis Cluster', () => {
  let cluster: LocalCluster;
  let client: Cluster;
  let app: TestApp;
  const queues: Queue[] = [];
  // Every client is disconnected after the file: a Queue given a client does not close it, and one left
  // reconnecting to the stopped cluster would keep the suite's shared worker busy (isolate: false).
  const clients: Cluster[] = [];
  const connection = () => {
    const made = new Cluster(cluster.ports.map((port) => ({ host: '127.0.0.1', port })));
    clients.push(made);
    return made;
  };
  const api = (path: string) => `${app.api}/c/grid${path}`;
  const tagged = (name: string) => encodeURIComponent(name);

  beforeAll(async () => {
    cluster = await startLocalCluster([6790, 6791, 6792]);
    client = connection();
    for (const name of ['{north}', '{south}', '{east}'])
      queues.push(await seedQueue({ connection: connection(), prefix: 'bull' }, name, { failed: 30, completed: 20 }));
    queues.push(await seedQueue({ connection: connection(), prefix: '{fleet}' }, 'mail', { failed: 10 }));
    // Written by hand: BullMQ cannot add to a queue whose keys fall in different slots.
    await client.hset('bull:plain:meta', 'opts.maxLenEvents', '10000');
    await client.hset('bull:plain:1', 'name', 'x', 'data', '{}', 'opts', '{}', 'timestamp', String(Date.now()));
    await client.zadd('bull:plain:failed', 1, '1');
    await client.rpush('bull:plain:wait', '2');
    app = await bootApp({
      env: {
        SERVICE_AUTHLESS: 'true',
        SERVICE_ENV_CONNECTIONS: 'true',
        SERVICE_REDIS_URL_GRID: cluster.url,
        SERVICE_REDIS_URL_GRID_PREFIX: 'bull,{fleet}',
        SERVICE_QUEUE_LIST_CACHE_MS: '0',
      },
    });
  }, 90_000);

  afterAll(async () => {
    await Promise.all(queues.map((queue) => queue.close()));
    for (const made of clients) made.disconnect();
    await app?.close();
    await cluster?.stop();
  });

  /** Script calls (EVALSHA or EVAL) the masters served while `work` ran. */
  const scriptCalls = async (work: () => Promise<unknown>) => {
    const masters = client.nodes('master');
    await Promise.all(masters.map((node) => node.config('RESETSTAT')));
    await work();
    const stats = await Promise.all(masters.map((node) => node.info('commandstats')));
    return stats.reduce(
      (sum, text) =>
        sum + [...text.matchAll(/cmdstat_eval(?:sha)?:calls=(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0),
      0,
    );
  };

  it('reads figures of queues on many slots with one script call per master, by hash tag when a node refuses a key', async () => {
    const refs: QueueRef[] = [
      ...['{north}', '{south}', '{east}'].map((name) => ({ prefix: 'bull', name })),
      { prefix: '{fleet}', name: 'mail' },
      { prefix: 'bull', name: 'plain' },
    ];
    const read = [figures.count('failed'), figures.count('completed')];
    const expected = [
      [30, 20],
      [30, 20],
      [30, 20],
      [10, 0],
      [0, 0],
    ];
    for (const ref of refs.slice(0, 4))
      expect(keySlot(queueKey(ref, 'meta'))).toBe(await client.cluster('KEYSLOT', queueKey(ref, 'meta')));
    const masterOf = (ref: QueueRef) => client.slots[keySlot(queueKey(ref, 'meta'))]![0];
    const masters = new Set(refs.slice(0, 4).map(masterOf));
    let values: number[][] = [];
    // Once first, so that no call is counted twice for a NOSCRIPT answer (the script then goes by EVAL).
    await readQueueFigures(client, refs, read, 1000);
    expect(await scriptCalls(async () => ({ values } = await readQueueFigures(client, refs, read, 1000)))).toBe(
      masters.size,
    );
    expect(values).toEqual(expected);
    // A stale slot map (as during a resharding): {south} believed on {north}'s master, read with it, refused there.
    const [north, south] = refs.map((ref) => keySlot(queueKey(ref, 'meta')));
    const southOwner = client.slots[south!]!;
    expect(southOwner[0]).not.toBe(client.slots[north!]![0]);
    client.slots[south!] = [...client.slots[north!]!];
    try {
      expect((await readQueueFigures(client, refs, read, 1000)).values).toEqual(expected);
    } finally {
      client.slots[south!] = southOwner;
    }
  });

  it('retries and removes by status, by ids and across queues on different masters, each job once', async () => {
    const retried = await request(api(`/queues/${tagged('{north}')}/jobs/retry`), {
      method: 'POST',
      body: { status: 'failed', all: true },
    });
    expect([retried.status, retried.body.succeeded]).toEqual([200, 30]);
    expect(await client.llen('bull:{north}:wait')).toBe(30);
    const ids = (await client.zrange('bull:{south}:completed', '0', '4')) as string[];
    const removed = await request(api(`/queues/${tagged('{south}')}/jobs/remove`), {
      method: 'POST',
      body: { jobIds: ids },
    });
    expect([removed.status, removed.body.succeeded]).toEqual([200, 5]);
    expect(await client.zcard('bull:{south}:completed')).toBe(15);
    const across = await request(api('/jobs/retry'), {
      method: 'POST',
      body: { status: 'failed', queues: { include: ['{south}', '{east}', 'mail'] } },
    });
    expect(across.status, JSON.stringify(across.body)).toBe(200);
    expect(await client.zcard('bull:{east}:failed')).toBe(0);
    expect(await client.zcard('{fleet}:mail:failed')).toBe(0);
    expect(await client.llen('bull:{south}:wait')).toBe(30);
  });

  it('moves a status between slots (spread name to tagged prefix), every job once', async () => {
    const moved = await request(api(`/queues/${tagged('{east}')}/jobs/move`), {
      method: 'POST',
      body: { to: { queueName: 'mail', prefix: '{fleet}' }, status: 'completed', all: true },
    });
    expect([moved.status, moved.body.succeeded]).toEqual([200, 20]);
    expect(await client.zcard('bull:{east}:completed')).toBe(0);
    expect(await client.llen('{fleet}:mail:wait')).toBe(20 + 10);
  });

  it('answers every route on a queue whose keys span slots without a 500 (CROSSSLOT)', async () => {
    const calls: Array<[string, string, object?]> = [
      ['GET', '/queues?pageSize=100'],
      ['GET', '/queues/plain'],
      ['GET', '/queues/plain/jobs?status=failed'],
      ['GET', '/queues/plain/jobs/1'],
      ['POST', '/queues/plain/jobs/retry', { status: 'failed', all: true }],
      ['POST', '/queues/plain/jobs/retry', { jobIds: ['1'] }],
      ['POST', '/queues/plain/jobs/remove', { status: 'failed', all: true }],
      ['POST', '/queues/plain/purge', { confirmName: 'plain', statuses: ['failed', 'waiting'] }],
      ['POST', '/queues/plain/jobs/move', { to: { queueName: '{north}' }, status: 'failed', all: true }],
      ['POST', '/queues/plain/pause', {}],
    ];
    const answers: string[] = [];
    for (const [method, path, body] of calls) {
      const response = await request(api(path), { method, ...(body ? { body } : {}) });
      answers.push(`${method} ${path} ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`);
    }
    expect(answers.filter((answer) => / 500 /.test(answer))).toEqual([]);
    // Still found by the list (with zero counts), refused by name where a route would run a script on it.
    const listed = await request(api('/queues?pageSize=100'));
    expect(listed.body.queues.map((queue: { name: string }) => queue.name)).toContain('plain');
    expect(answers.find((answer) => answer.startsWith('POST /queues/plain/jobs/retry'))).toContain(
      'UNSUPPORTED_QUEUE_NAME',
    );
  });
});
