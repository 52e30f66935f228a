import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { storeFixture } from '../helpers/stores.js';

/**
 * The event stream and /api/prometheus are plain express routes; they go
 * through the procedures' own guard functions, so they answer exactly as a
 * procedure does: the same 401 body, the same rate limit, the same 404s.
 */
describe('plain routes guarded like the procedures', () => {
  const store = storeFixture();
  const eventsUrl = (app: TestApp, queueName: string) =>
    `${app.api}/c/${store.connectionId}/queues/${encodeURIComponent(queueName)}/events`;

  describe('signed out', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await bootApp({ env: { ...store.env, SERVICE_AUTHLESS: 'false' } });
    });
    afterAll(() => app.close());

    it('answers 401 with the body a procedure gives', async () => {
      const procedure = await request(`${app.api}/c/${store.connectionId}/queues`);
      expect(procedure.status).toBe(401);
      for (const url of [eventsUrl(app, 'mail'), `${app.api}/prometheus`]) {
        const response = await request(url);
        expect([url, response.status, response.body]).toEqual([url, 401, procedure.body]);
      }
    });
  });

  describe('rate limited', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await bootApp({
        env: { ...store.env, RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_MAX: '2', TRUST_PROXY: 'true' },
      });
    });
    afterAll(() => app.close());

    it.each([
      ['the event stream', (target: TestApp) => eventsUrl(target, 'no-such-queue')],
      ['Prometheus', (target: TestApp) => `${target.api}/prometheus`],
    ])('counts %s against the general limit and answers 429 past it', async (_route, url) => {
      // A fresh client address per case: the loopback address shares one bucket otherwise.
      const headers = { 'x-forwarded-for': `10.0.0.${_route.length}` };
      const first = await request(url(app), { headers });
      expect(first.headers.get('ratelimit-limit')).toBe('2');
      expect(first.headers.get('ratelimit-remaining')).toBe('1');
      await request(url(app), { headers });
      const limited = await request(url(app), { headers });
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number) });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });

  describe('the event stream of a queue', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await bootApp({ env: store.env });
    });
    afterAll(async () => {
      await app.close();
      await store.cleanup();
    });

    it('answers 404 for a queue that does not exist, subscribing nothing and creating nothing', async () => {
      const response = await request(eventsUrl(app, 'missing'));
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('missing') });
      expect(app.services.events.openFeeds).toBe(0);
      expect(await store.redis.keys(`${store.prefix}:missing:*`)).toEqual([]);
    });

    it('streams a queue whose name holds ":" (BullMQ refuses such names for new queues)', async () => {
      await store.redis.hset(`${store.prefix}:legacy:mail:meta`, 'opts.maxLenEvents', '10000');
      const controller = new AbortController();
      const response = await fetch(eventsUrl(app, 'legacy:mail'), { signal: controller.signal });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      let text = '';
      while (!text.includes('subscribed')) text += new TextDecoder().decode((await reader.read()).value);
      // A job written by a producer that still allowed ':' names (the same keys BullMQ would use).
      const producer = new Queue('mail', { ...store.bullmq, prefix: `${store.prefix}:legacy` });
      await producer.add('send', {});
      while (!text.includes('event: added')) text += new TextDecoder().decode((await reader.read()).value);
      controller.abort();
      await producer.close();
      expect(text).toContain(': subscribed to legacy:mail');
      expect(text).toMatch(/"queueName":"legacy:mail"/);
    });
  });
});
