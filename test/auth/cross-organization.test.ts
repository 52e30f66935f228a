import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { asBrowser, bearer, signUp, type SignedInUser } from '../helpers/auth.js';
import { deleteKeysMatching, redisUrl, uniquePrefix } from '../helpers/stores.js';

/**
 * Another organization's audit trail, tokens and Prometheus series, on REST and
 * tRPC (connections, queues, jobs and the event stream: route-matrix.test.ts).
 * Two organizations with a saved connection each; B's owner reaches for A's.
 */
describe('another organization’s audit, tokens and Prometheus series are out of reach', () => {
  let app: TestApp;
  let ownerA: SignedInUser;
  let ownerB: SignedInUser;
  let queue: Queue;
  const prefixA = uniquePrefix('xorg');
  const queueA = `ledger-${prefixA}`;

  beforeAll(async () => {
    app = await bootApp();
    [ownerA, ownerB] = await Promise.all([signUp(app, 'owner-a'), signUp(app, 'owner-b')]);
    for (const [owner, name, prefix] of [
      [ownerA, 'a-store', prefixA],
      [ownerB, 'b-store', uniquePrefix('xorg')],
    ] as const) {
      const created = await request(`${app.api}/connections`, {
        method: 'POST',
        headers: asBrowser(app, owner),
        body: { name, url: `${redisUrl}/0`, prefix },
      });
      expect(created.status).toBe(201);
    }
    queue = new Queue(queueA, { connection: { host: '127.0.0.1', port: 6379 }, prefix: prefixA });
    await queue.add('entry', { amount: 1 });
  });
  afterAll(async () => {
    await queue?.close();
    await app?.close();
    const redis = new Redis(`${redisUrl}/0`);
    await deleteKeysMatching(redis, `${prefixA}:*`);
    redis.disconnect();
  });

  const asB = (extra: Record<string, string> = {}) => asBrowser(app, ownerB, extra);
  /** B's owner naming A's organization (it is not theirs). */
  const inA = () => ({ 'x-organization-id': ownerA.organizationId });

  it('audit: B lists only its own events; asking for A’s trail or its export is 403 on REST and tRPC', async () => {
    const own = await request(`${app.api}/audit?limit=100`, { headers: asB() });
    expect(own.status).toBe(200);
    const actors = new Set(own.body.events.map((event: { actor: { userId: string } }) => event.actor.userId));
    expect(actors.has(ownerB.userId)).toBe(true);
    expect(actors.has(ownerA.userId)).toBe(false);
    expect(JSON.stringify(own.body)).not.toContain('a-store');

    expect((await request(`${app.api}/audit`, { headers: asB(inA()) })).status).toBe(403);
    expect((await request(`${app.api}/audit/export`, { headers: asB(inA()) })).status).toBe(403);
    const overTrpc = await request(`${app.api}/trpc/audit.list?input=${encodeURIComponent('{}')}`, {
      headers: asB(inA()),
    });
    expect(overTrpc.status).toBe(403);
    // The check is not blanket: A reads its own trail.
    const trailOfA = await request(`${app.api}/audit?limit=100`, { headers: asBrowser(app, ownerA) });
    expect(JSON.stringify(trailOfA.body)).toContain(ownerA.userId);
  });

  it('tokens: B neither sees nor revokes A’s; A’s token does not act in B’s organization', async () => {
    const tokenA = (
      await request(`${app.api}/auth/tokens`, {
        method: 'POST',
        headers: asBrowser(app, ownerA),
        body: { name: 'a-ci', role: 'admin' },
      })
    ).body;
    const listed = await request(`${app.api}/auth/tokens`, { headers: asB() });
    expect(listed.status).toBe(200);
    expect(listed.body.tokens.map((token: { id: string }) => token.id)).not.toContain(tokenA.id);
    expect((await request(`${app.api}/auth/tokens`, { headers: asB(inA()) })).status).toBe(403);

    expect((await request(`${app.api}/auth/tokens/${tokenA.id}`, { method: 'DELETE', headers: asB() })).status).toBe(
      404,
    );
    const revokeOverTrpc = await request(`${app.api}/trpc/auth.revokeToken`, {
      method: 'POST',
      headers: asB(),
      body: { id: tokenA.id },
    });
    expect([403, 404]).toContain(revokeOverTrpc.status);
    expect((await request(`${app.api}/organizations`, { headers: bearer(tokenA.token) })).status).toBe(200);

    const inB = await request(`${app.api}/connections`, {
      headers: { ...bearer(tokenA.token), 'x-organization-id': ownerB.organizationId },
    });
    expect(inB.status).toBe(403);
  });

  it('Prometheus: B’s scrape holds B’s connection and none of A’s series', async () => {
    const scrapeA = await (await fetch(`${app.api}/prometheus`, { headers: { cookie: ownerA.cookie } })).text();
    expect(scrapeA).toContain('connection="a-store"');
    expect(scrapeA).toContain(queueA);
    const scrapeB = await (await fetch(`${app.api}/prometheus`, { headers: { cookie: ownerB.cookie } })).text();
    expect(scrapeB).toContain('connection="b-store"');
    expect(scrapeB).not.toContain('a-store');
    expect(scrapeB).not.toContain(queueA);
    const askingForA = await fetch(`${app.api}/prometheus`, {
      headers: { cookie: ownerB.cookie, 'x-organization-id': ownerA.organizationId },
    });
    expect(askingForA.status).toBe(403);
  });
});
