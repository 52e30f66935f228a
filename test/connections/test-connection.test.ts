import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeFailureMinimumMs } from '../../routers/connections/probe-store.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';

describe('POST /api/connections/test', () => {
  let app: TestApp;
  const test = (body: unknown) => request(`${app.api}/connections/test`, { method: 'POST', body });
  beforeAll(async () => {
    app = await bootApp({ env: { SERVICE_AUTHLESS: 'true' } });
  });
  afterAll(() => app.close());

  it('reports version, mode and latency of a reachable store', async () => {
    const { status, body } = await test({ url: 'redis://127.0.0.1:6379/0' });
    expect(status).toBe(200);
    expect(body).toEqual({
      ok: true,
      latencyMs: expect.any(Number),
      redisVersion: expect.stringMatching(/^\d+\.\d+\.\d+/),
      mode: 'standalone',
    });
  });

  it.each([
    ['standalone', 'redis://:secret-pw@127.0.0.1:1'],
    ['cluster', 'redis://:secret-pw@127.0.0.1:1,redis://:secret-pw@127.0.0.1:2'],
  ])('answers ok:false (%s) for an unreachable store within 3 s, without the password', async (mode, url) => {
    const started = performance.now();
    const { status, body } = await test({ url });
    expect(performance.now() - started).toBeLessThan(3000);
    expect(status).toBe(200);
    expect(body).toEqual({ ok: false, latencyMs: null, redisVersion: null, mode, error: expect.any(String) });
    expect(JSON.stringify([body, app.logs])).not.toContain('secret-pw');
  });

  it.each([{}, { id: 'x', url: 'redis://127.0.0.1:6379' }, { url: 'https://127.0.0.1' }])(
    'answers 400 naming url for %j',
    async (body) => {
      const response = await test(body);
      expect(response.status).toBe(400);
      expect(response.body.message).toContain('url:');
    },
  );
});

describe('the test route is no port scanner', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({ env: { SERVICE_AUTHLESS: 'true' } });
  });
  afterAll(() => app.close());

  it('gives a closed port and a non-Redis service (PostgreSQL) the same answer after the same minimum delay', async () => {
    const timed = async (url: string) => {
      const started = performance.now();
      const { body } = await request(`${app.api}/connections/test`, { method: 'POST', body: { url } });
      return { body, ms: performance.now() - started };
    };
    const closed = await timed('redis://127.0.0.1:1');
    const postgres = await timed('redis://127.0.0.1:5432');
    expect(closed.body).toEqual({
      ok: false,
      latencyMs: null,
      redisVersion: null,
      mode: 'standalone',
      error: 'no Redis server answered at 127.0.0.1:1',
    });
    expect(postgres.body).toEqual({ ...closed.body, error: 'no Redis server answered at 127.0.0.1:5432' });
    for (const { ms } of [closed, postgres]) {
      expect(ms).toBeGreaterThanOrEqual(probeFailureMinimumMs);
      expect(ms).toBeLessThan(probeFailureMinimumMs + 700);
    }
  });

  it('refuses link-local addresses (cloud metadata) before contacting them, on test and on save', async () => {
    const tested = await request(`${app.api}/connections/test`, {
      method: 'POST',
      body: { url: 'redis://169.254.169.254:6379' },
    });
    expect(tested.status).toBe(400);
    expect(tested.body).toMatchObject({
      code: 'CONNECTION_TARGET_FORBIDDEN',
      message: expect.stringContaining('link-local'),
    });
    const saved = await request(`${app.api}/connections`, {
      method: 'POST',
      body: { name: 'metadata', url: 'redis://[fe80::1]:6379' },
    });
    expect(saved.status).toBe(400);
    expect(saved.body.code).toBe('CONNECTION_TARGET_FORBIDDEN');
  });
});
