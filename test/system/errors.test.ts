import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';

describe('HTTP error bodies', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp();
  });
  afterAll(() => app.close());

  it('answers a body over 1 MB with 413 and the JSON error shape', async () => {
    const big = JSON.stringify({ blob: 'x'.repeat(1024 * 1024 + 10) });
    const { status, body } = await request(`${app.api}/auth/sign-out`, { method: 'POST', rawBody: big });
    expect(status).toBe(413);
    expect(body).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining('1 MB') });
  });

  it('answers a 10 MB body with 413 on REST, tRPC and sign-in, and keeps serving', async () => {
    const huge = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(10 * 1024 * 1024) });
    for (const path of ['/auth/sign-in/email', '/organizations', '/trpc/auth.signInEmail', '/trpc/jobs.add']) {
      const { status, body } = await request(`${app.api}${path}`, { method: 'POST', rawBody: huge });
      expect({ path, status }).toEqual({ path, status: 413 });
      expect(JSON.stringify(body)).toContain('PAYLOAD_TOO_LARGE');
    }
    expect((await request(`${app.api}/health`)).status).toBe(200);
  });

  it('accepts a body just under 1 MB (the limit is not lower than the spec says)', async () => {
    const nearLimit = JSON.stringify({ blob: 'x'.repeat(1000 * 1000) });
    const { status } = await request(`${app.api}/no-such-route`, { method: 'POST', rawBody: nearLimit });
    expect(status).toBe(404);
  });

  it('answers malformed JSON with 400 INVALID_JSON', async () => {
    const { status, body } = await request(`${app.api}/auth/sign-out`, { method: 'POST', rawBody: '{"oops":' });
    expect(status).toBe(400);
    expect(body).toEqual({ code: 'INVALID_JSON', message: 'Request body is not valid JSON' });
  });

  it('answers a JSON body that is not an object with 400', async () => {
    const { status, body } = await request(`${app.api}/auth/sign-out`, { method: 'POST', rawBody: '[1,2]' });
    expect(status).toBe(400);
    expect(body.code).toBe('VALIDATION_FAILED');
  });

  it('answers an unknown /api path with 404 naming the route', async () => {
    const { status, body } = await request(`${app.api}/definitely/not/here?x=1`);
    expect(status).toBe(404);
    expect(body).toEqual({ code: 'NOT_FOUND', message: 'No route matches GET /api/definitely/not/here' });
  });

  it('answers an unknown path outside /api with the same JSON 404', async () => {
    const { status, body } = await request(`${app.url}/elsewhere`, { method: 'DELETE' });
    expect(status).toBe(404);
    expect(body).toEqual({ code: 'NOT_FOUND', message: 'No route matches DELETE /elsewhere' });
  });

  it('answers a wrong method on a known path with 405 JSON and Allow, not a crash', async () => {
    const { status, body, headers } = await request(`${app.api}/health`, { method: 'PUT', body: {} });
    expect(status).toBe(405);
    expect(headers.get('allow')).toBe('GET');
    expect(body).toEqual({ code: 'METHOD_NOT_ALLOWED', message: 'PUT is not allowed on /api/health; allowed: GET' });
  });

  it('gives every response a request id, echoing a sane incoming one', async () => {
    const echoed = await request(`${app.api}/health`, { headers: { 'x-request-id': 'trace-abc.1' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-abc.1');
    const generated = await request(`${app.api}/health`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('never sends a stack trace in an error body', async () => {
    const { body } = await request(`${app.api}/health`, { method: 'POST', rawBody: '{' });
    expect(JSON.stringify(body)).not.toMatch(/stack|at \w+ \(/);
  });
});
