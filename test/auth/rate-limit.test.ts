import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { signUp, testPassword } from '../helpers/auth.js';

const production = { NODE_ENV: 'production', SERVICE_AUTHLESS: 'true' };
const hammer = async (url: string, times: number, init: Parameters<typeof request>[1] = {}) => {
  const statuses: number[] = [];
  for (let i = 0; i < times; i += 1) statuses.push((await request(url, init)).status);
  return statuses;
};
const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

describe('rate limits', () => {
  describe('in production', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await bootApp({ env: { ...production, DISABLE_RATE_LIMIT: 'true', RATE_LIMIT_MAX: '3' } });
    });
    afterAll(() => app.close());

    it('answers 429 with Retry-After, RateLimit-* headers and the JSON error body past the limit', async () => {
      const first = await request(`${app.api}/mode`);
      expect(first.headers.get('ratelimit-limit')).toBe('3');
      expect(first.headers.get('ratelimit-remaining')).toBe('2');
      await hammer(`${app.api}/mode`, 2);
      const limited = await request(`${app.api}/mode`);
      expect(limited.status).toBe(429);
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limited.headers.get('ratelimit-remaining')).toBe('0');
      expect(Number(limited.headers.get('ratelimit-reset'))).toBe(retryAfter);
      expect(limited.body).toEqual({
        code: 'RATE_LIMITED',
        message: `Too many requests; retry in ${retryAfter} s`,
        retryAfterSeconds: retryAfter,
      });
    });

    it('ignores DISABLE_RATE_LIMIT there, with a startup warning', () => {
      expect(app.logs.some((line) => line.includes('DISABLE_RATE_LIMIT is ignored in production'))).toBe(true);
    });

    it('does not believe X-Forwarded-For without TRUST_PROXY', async () => {
      expect((await request(`${app.api}/mode`, { headers: { 'x-forwarded-for': randomIp() } })).status).toBe(429);
    });
  });

  describe('keys and stricter limits', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await bootApp({
        env: {
          NODE_ENV: 'production',
          APP_BASE_URL: 'http://localhost:3000',
          TRUST_PROXY: 'true',
          RATE_LIMIT_MAX: '6',
          RATE_LIMIT_AUTH_MAX: '2',
          RATE_LIMIT_CONNECTION_TEST_MAX: '2',
        },
      });
    });
    afterAll(() => app.close());

    it('limits sign-in more strictly than the general API', async () => {
      const ip = { 'x-forwarded-for': randomIp() };
      const signIns = await hammer(`${app.api}/auth/sign-in/email`, 3, {
        method: 'POST',
        headers: ip,
        body: { email: 'x@example.test', password: testPassword },
      });
      expect(signIns).toEqual([401, 401, 429]);
      expect((await request(`${app.api}/mode`, { headers: ip })).status).toBe(200);
    });

    it('keys signed-in callers by user, others by client IP (X-Forwarded-For with TRUST_PROXY)', async () => {
      const [a, b] = [
        await signUp(app, 'a', { 'x-forwarded-for': randomIp() }),
        await signUp(app, 'b', { 'x-forwarded-for': randomIp() }),
      ];
      expect(await hammer(`${app.api}/organizations`, 7, { headers: { cookie: a.cookie } })).toEqual([
        200, 200, 200, 200, 200, 200, 429,
      ]);
      expect((await request(`${app.api}/organizations`, { headers: { cookie: b.cookie } })).status).toBe(200);
      const ip = { 'x-forwarded-for': randomIp() };
      expect(await hammer(`${app.api}/mode`, 7, { headers: ip })).toEqual([200, 200, 200, 200, 200, 200, 429]);
      expect((await request(`${app.api}/mode`, { headers: { 'x-forwarded-for': randomIp() } })).status).toBe(200);
    });

    it('limits POST /api/connections/test more strictly', async () => {
      const user = await signUp(app, 'tester', { 'x-forwarded-for': randomIp() });
      const headers = { cookie: user.cookie, origin: 'http://localhost:3000' };
      const tests = await hammer(`${app.api}/connections/test`, 3, {
        method: 'POST',
        headers,
        body: { url: 'redis://127.0.0.1:1' },
      });
      expect(tests).toEqual([200, 200, 429]);
      expect((await request(`${app.api}/organizations`, { headers: { cookie: user.cookie } })).status).toBe(200);
    });
  });

  describe('outside production', () => {
    it('is off by default, on with RATE_LIMIT_ENABLED, and DISABLE_RATE_LIMIT turns it off', () => {
      expect(loadConfig({ NODE_ENV: 'development' }).rateLimit.enabled).toBe(false);
      expect(loadConfig({ NODE_ENV: 'development', RATE_LIMIT_ENABLED: 'true' }).rateLimit.enabled).toBe(true);
      expect(
        loadConfig({ NODE_ENV: 'development', RATE_LIMIT_ENABLED: 'true', DISABLE_RATE_LIMIT: 'true' }).rateLimit
          .enabled,
      ).toBe(false);
      expect(
        loadConfig({ NODE_ENV: 'production', APP_BASE_URL: 'https://bullpen.example.test', DISABLE_RATE_LIMIT: 'true' })
          .rateLimit,
      ).toMatchObject({ enabled: true, disableRefused: true });
    });

    it('honours DISABLE_RATE_LIMIT on a running service', async () => {
      const app = await bootApp({
        env: {
          NODE_ENV: 'development',
          SERVICE_AUTHLESS: 'true',
          RATE_LIMIT_ENABLED: 'true',
          DISABLE_RATE_LIMIT: 'true',
          RATE_LIMIT_MAX: '1',
        },
      });
      try {
        expect(await hammer(`${app.api}/mode`, 3)).toEqual([200, 200, 200]);
        expect((await request(`${app.api}/mode`)).headers.get('ratelimit-limit')).toBeNull();
      } finally {
        await app.close();
      }
    });
  });

  describe('with RATE_LIMIT_REDIS_URL', () => {
    it('shares limits between replicas', async () => {
      const env = {
        ...production,
        TRUST_PROXY: 'true',
        RATE_LIMIT_MAX: '3',
        RATE_LIMIT_REDIS_URL: 'redis://127.0.0.1:6379/0',
      };
      const [one, two] = await Promise.all([bootApp({ env }), bootApp({ env })]);
      try {
        const headers = { 'x-forwarded-for': randomIp() };
        expect(await hammer(`${one.api}/mode`, 2, { headers })).toEqual([200, 200]);
        expect(await hammer(`${two.api}/mode`, 2, { headers })).toEqual([200, 429]);
      } finally {
        await Promise.all([one.close(), two.close()]);
      }
    });
  });
});
