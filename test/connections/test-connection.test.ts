import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    expect(body).toEqual({ ok: true, latencyMs: expect.any(Number), redisVersion: expect.stringMatching(/^\d+\.\d+\.\d+/), mode: 'standalone' });
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

  it.each([{}, { id: 'x', url: 'redis://127.0.0.1:6379' }, { url: 'https://127.0.0.1' }])('answers 400 naming url for %j', async (body) => {
    const response = await test(body);
    expect(response.status).toBe(400);
    expect(response.body.message).toContain('url:');
  });
});
