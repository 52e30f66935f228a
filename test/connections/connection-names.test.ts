import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { runBullpen } from '../helpers/cli.js';
import { testEncryptionKey } from '../helpers/connections.js';
import { deleteKeysMatching, redisUrl, uniquePrefix } from '../helpers/stores.js';

describe('a saved connection is reachable by its name', () => {
  const prefix = uniquePrefix('names');
  let app: TestApp;
  let queue: Queue;
  let localId: string;

  beforeAll(async () => {
    app = await bootApp({
      env: { SERVICE_AUTHLESS: 'true', SERVICE_ENCRYPTION_KEY: testEncryptionKey, DISABLE_RATE_LIMIT: 'true' },
    });
    queue = new Queue('named-orders', { connection: { host: '127.0.0.1', port: 6379 }, prefix });
    await queue.add('ship', {});
    const created = await request(`${app.api}/connections`, {
      method: 'POST',
      body: { name: 'local', url: `${redisUrl}/0`, prefix },
    });
    expect(created.status).toBe(201);
    localId = created.body.id;
    const spaced = await request(`${app.api}/connections`, {
      method: 'POST',
      body: { name: 'my store/eu', url: `${redisUrl}/0`, prefix },
    });
    expect(spaced.status).toBe(201);
  });

  afterAll(async () => {
    await queue?.close();
    await app?.close();
    const { Redis } = await import('ioredis');
    const redis = new Redis(`${redisUrl}/0`);
    await deleteKeysMatching(redis, `${prefix}:*`);
    redis.disconnect();
  });

  it('answers /c/{name}/… like /c/{id}/…, on REST and tRPC', async () => {
    const byName = await request(`${app.api}/c/local/queues`);
    const byId = await request(`${app.api}/c/${localId}/queues`);
    expect(byName.status).toBe(200);
    expect(byName.body.queues.map((entry: { name: string }) => entry.name)).toEqual(['named-orders']);
    expect(byName.body).toEqual(byId.body);
    const encoded = await request(`${app.api}/c/${encodeURIComponent('my store/eu')}/queues/named-orders`);
    expect(encoded.status).toBe(200);
    expect(encoded.body.jobCounts.waiting).toBe(1);
    expect((await app.trpc.queues.list.query({ connectionId: 'local' })).queues).toHaveLength(1);
    expect((await request(`${app.api}/c/nowhere/queues`)).status).toBe(404);
  });

  it('records the id, not the name, in the audit trail of a call by name', async () => {
    expect((await request(`${app.api}/c/local/queues/named-orders/pause`, { method: 'POST' })).status).toBe(200);
    const audit = await request(`${app.api}/audit?action=queues.pause`);
    expect(audit.body.events[0]).toMatchObject({
      action: 'queues.pause',
      connectionId: localId,
      queueName: 'named-orders',
    });
  });

  it('refuses a name shaped like an id, at create and at rename', async () => {
    const uuid = randomUUID();
    const created = await request(`${app.api}/connections`, {
      method: 'POST',
      body: { name: uuid, url: `${redisUrl}/0` },
    });
    expect(created.status).toBe(400);
    expect(created.body.issues[0].path).toEqual(['name']);
    const renamed = await request(`${app.api}/connections/${localId}`, {
      method: 'PATCH',
      body: { name: uuid.toUpperCase() },
    });
    expect(renamed.status).toBe(400);
    expect(renamed.body.issues[0].path).toEqual(['name']);
    expect((await request(`${app.api}/connections/${localId}`)).body.name).toBe('local');
  });

  it('lets the CLI name a connection and shows the name, never the id, in the purge prompt', async () => {
    const env = { BULLPEN_URL: app.url };
    const listed = await runBullpen(['queues', '--conn', 'local', '--json'], { env });
    expect(JSON.parse(listed.stdout).queues.map((entry: { name: string }) => entry.name)).toEqual(['named-orders']);
    const prompt = await runBullpen(['purge', 'named-orders', '--status', 'waiting', '--conn', localId], {
      env,
      input: 'no\n',
    });
    expect(prompt.stderr).toContain('on connection "local".');
    expect(prompt.stderr).not.toContain(localId);
    expect(prompt.code).toBe(1);
    expect(await queue.getWaitingCount()).toBe(1);
  });

  it('labels Prometheus samples with the connection name', async () => {
    const response = await fetch(`${app.api}/prometheus`);
    const text = await response.text();
    expect(text).toContain('bullpen_store_up{connection="local"} 1');
    expect(text).toContain(
      `bullmq_job_count{queue="named-orders",state="waiting",connection="local",prefix="${prefix}"}`,
    );
    expect(text).not.toContain(localId);
  });
});
