import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTargetPolicy } from '../../server/stores/target-policy.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { testEncryptionKey } from '../helpers/connections.js';
import { startLocalCluster, type LocalCluster } from '../helpers/redis-cluster.js';

const refusedCode = (promise: Promise<unknown>) =>
  promise.then(
    () => 'allowed',
    (error: { code?: string }) => error.code,
  );

describe('SERVICE_CONNECTION_ALLOW entries', () => {
  // A fake resolver: names resolve to what the table says, so the rules are tested without real DNS.
  const names: Record<string, string[]> = {
    'redis.internal': ['10.0.0.5'],
    'cache.prod.example': ['10.1.0.7'],
    'sneaky.prod.example': ['10.1.0.8', '169.254.169.254'],
  };
  const policy = createTargetPolicy(
    ['redis.internal', '*.prod.example', '192.168.0.0/16', '127.0.0.1:6379', '[::1]:6380'],
    async (host) => {
      if (!names[host]) throw new Error('ENOTFOUND');
      return names[host]!;
    },
  );

  it.each([
    ['redis.internal', 6379, 'allowed'],
    ['cache.prod.example', 7000, 'allowed'],
    ['192.168.4.2', 6379, 'allowed'],
    ['127.0.0.1', 6379, 'allowed'],
    ['::1', 6380, 'allowed'],
    ['127.0.0.1', 6380, 'CONNECTION_TARGET_FORBIDDEN'],
    ['10.0.0.5', 6379, 'CONNECTION_TARGET_FORBIDDEN'],
    ['prod.example', 6379, 'CONNECTION_TARGET_FORBIDDEN'],
    ['sneaky.prod.example', 6379, 'CONNECTION_TARGET_FORBIDDEN'],
    ['unknown.example', 6379, 'CONNECTION_TARGET_FORBIDDEN'],
  ])('%s:%i → %s', async (host, port, expected) => {
    expect(await refusedCode(policy.resolve(host, port))).toBe(expected);
  });

  it('allows a link-local address only when an address or CIDR entry names it', async () => {
    const listed = createTargetPolicy(['169.254.169.254/32']);
    expect(await refusedCode(listed.resolve('169.254.169.254', 6379))).toBe('allowed');
    expect(await refusedCode(createTargetPolicy(null).resolve('169.254.10.1', 6379))).toBe(
      'CONNECTION_TARGET_FORBIDDEN',
    );
    expect(await refusedCode(createTargetPolicy(null).resolve('10.9.9.9', 6379))).toBe('allowed');
  });
});

describe('SERVICE_CONNECTION_ALLOW over HTTP, with a real 3-master cluster', () => {
  let cluster: LocalCluster;
  let app: TestApp;
  const ports = [7310, 7311, 7312];
  beforeAll(async () => {
    cluster = await startLocalCluster(ports);
    // The first seed is allowed by address and port; the other masters are not listed.
    app = await bootApp({
      env: {
        SERVICE_AUTHLESS: 'true',
        SERVICE_ENCRYPTION_KEY: testEncryptionKey,
        SERVICE_CONNECTION_ALLOW: `127.0.0.1:${ports[0]},localhost:6379`,
      },
    });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await cluster?.stop();
  });

  it('allows a listed target by name, and refuses an unlisted one before contacting it (test, save, update)', async () => {
    expect(
      (await request(`${app.api}/connections/test`, { method: 'POST', body: { url: 'redis://localhost:6379' } })).body,
    ).toMatchObject({ ok: true });
    const outside = await request(`${app.api}/connections/test`, {
      method: 'POST',
      body: { url: 'redis://127.0.0.1:6379' },
    });
    expect(outside.status).toBe(400);
    expect(outside.body).toMatchObject({
      code: 'CONNECTION_TARGET_FORBIDDEN',
      message: expect.stringContaining('127.0.0.1:6379'),
    });
    expect(
      (
        await request(`${app.api}/connections`, {
          method: 'POST',
          body: { name: 'outside', url: 'redis://127.0.0.1:6379' },
        })
      ).status,
    ).toBe(400);
    const saved = await request(`${app.api}/connections`, {
      method: 'POST',
      body: { name: 'inside', url: 'redis://localhost:6379' },
    });
    expect(saved.status).toBe(201);
    const moved = await request(`${app.api}/connections/${saved.body.id}`, {
      method: 'PATCH',
      body: { url: 'redis://127.0.0.1:6379' },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.code).toBe('CONNECTION_TARGET_FORBIDDEN');
    expect((await request(`${app.api}/connections`)).body.connections.map((c: { name: string }) => c.name)).toEqual([
      'inside',
    ]);
  });

  it('refuses every seed outside the list, and the cluster nodes it reports that are outside it', async () => {
    const seeds = await request(`${app.api}/connections/test`, { method: 'POST', body: { url: cluster.url } });
    expect(seeds.status).toBe(400);
    expect(seeds.body.message).toContain(`127.0.0.1:${ports[1]}`);
    // Only the allowed seed given: the cluster reports the two other masters, which are refused before any connection.
    const reported = await request(`${app.api}/connections/test`, {
      method: 'POST',
      body: { url: `redis://127.0.0.1:${ports[0]}`, cluster: true },
    });
    expect(reported.status).toBe(400);
    expect(reported.body.code).toBe('CONNECTION_TARGET_FORBIDDEN');
    expect(reported.body.message).toMatch(new RegExp(`127\\.0\\.0\\.1:(${ports[1]}|${ports[2]}) is not allowed`));
  });

  it('lets the whole cluster through once every master is listed', async () => {
    const listed = await bootApp({
      env: { SERVICE_AUTHLESS: 'true', SERVICE_CONNECTION_ALLOW: ports.map((port) => `127.0.0.1:${port}`).join(',') },
    });
    try {
      const tested = await request(`${listed.api}/connections/test`, {
        method: 'POST',
        body: { url: `redis://127.0.0.1:${ports[0]}`, cluster: true },
      });
      expect(tested.body).toMatchObject({ ok: true, mode: 'cluster' });
    } finally {
      await listed.close();
    }
  });
});
