import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { startUpstream } from './support/analytics-upstream.js';

/** POST with a chunked body (no Content-Length), the way a streaming client sends it. */
function postChunked(url: string, size: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(url, { method: 'POST', headers: { 'content-type': 'text/plain' } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk)).on('end', () => resolve({ status: res.statusCode!, body }));
    });
    call.on('error', reject);
    for (let sent = 0; sent < size; sent += 64 * 1024) call.write(Buffer.alloc(Math.min(64 * 1024, size - sent), 97));
    call.end();
  });
}

describe('/ingest analytics proxy', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let app: TestApp;
  beforeAll(async () => {
    upstream = await startUpstream();
    app = await bootApp({
      env: { SERVICE_AUTHLESS: 'true', ANALYTICS_KEY: 'phc_test', ANALYTICS_UPSTREAM_URL: `${upstream.url}/` },
      app: { ingestTimeoutMs: 400 },
    });
  });
  afterAll(async () => {
    await app.close();
    await upstream.close();
  });

  it('passes method, path, query and body through, without our cookies or Authorization, with the client IP', async () => {
    const payload = JSON.stringify({ api_key: 'phc_test', event: '$pageview', properties: { n: 'é'.repeat(1000) } });
    const response = await fetch(`${app.url}/ingest/e/?ip=1&_=1700000000`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: 'bullpen_session=secret-session',
        authorization: 'Bearer bp_secret',
        'x-forwarded-for': '203.0.113.9',
        'user-agent': 'ingest-test',
      },
      body: payload,
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ status: 1 });
    expect(response.headers.get('x-upstream')).toBe('yes');
    expect(response.headers.get('set-cookie')).toBeNull();
    const seen = upstream.received.at(-1)!;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/e/?ip=1&_=1700000000');
    expect(seen.body.toString()).toBe(payload);
    expect(seen.headers.cookie).toBeUndefined();
    expect(seen.headers.authorization).toBeUndefined();
    // No TRUST_PROXY: the spoofed header is not believed, the socket address is sent.
    expect(seen.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen.headers['user-agent']).toBe('ingest-test');
    expect(seen.headers['content-type']).toBe('application/json');
  });

  it('passes GET with its query', async () => {
    const response = await fetch(`${app.url}/ingest/decide/?v=3&token=abc`);
    expect(response.status).toBe(201);
    expect(upstream.received.at(-1)).toMatchObject({ method: 'GET', url: '/decide/?v=3&token=abc' });
  });

  it('streams the answer: the first part arrives before the upstream has finished', async () => {
    const response = await fetch(`${app.url}/ingest/stream`);
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toBe('first part;');
    upstream.release();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('second part');
  });

  it('refuses a body over 1 MB with 413, declared or streamed', async () => {
    const before = upstream.received.length;
    const declared = await request(`${app.url}/ingest/e/`, { method: 'POST', rawBody: 'a'.repeat(1024 * 1024 + 1) });
    expect(declared.status).toBe(413);
    expect(declared.body.code).toBe('PAYLOAD_TOO_LARGE');
    expect(upstream.received.length).toBe(before);
    const streamed = await postChunked(`${app.url}/ingest/e/`, 1024 * 1024 + 64 * 1024);
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers 502 in the error shape when the upstream does not answer in time', async () => {
    const started = Date.now();
    const response = await request(`${app.url}/ingest/slow`);
    expect(response.status).toBe(502);
    expect(response.body).toEqual({
      code: 'UPSTREAM_UNAVAILABLE',
      message: 'The analytics upstream is no answer within 0.4 s',
    });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('is not authenticated even when authentication is on, and 502 when the upstream is down', async () => {
    const down = await startUpstream();
    await down.close();
    const authenticated = await bootApp({ env: { ANALYTICS_KEY: 'phc_test', ANALYTICS_UPSTREAM_URL: down.url } });
    try {
      const response = await request(`${authenticated.url}/ingest/e/`, { method: 'POST', body: { event: 'x' } });
      expect(response.status).toBe(502);
      expect(response.body).toEqual({ code: 'UPSTREAM_UNAVAILABLE', message: 'The analytics upstream is unreachable' });
    } finally {
      await authenticated.close();
    }
  });
});

describe('/ingest without ANALYTICS_KEY', () => {
  it('is 404, and nothing is proxied', async () => {
    const upstream = await startUpstream();
    const app = await bootApp({ env: { SERVICE_AUTHLESS: 'true', ANALYTICS_UPSTREAM_URL: upstream.url } });
    try {
      const response = await request(`${app.url}/ingest/e/`, { method: 'POST', body: { event: 'x' } });
      expect(response.status).toBe(404);
      expect(response.body.code).toBe('NOT_FOUND');
      expect(upstream.received).toHaveLength(0);
    } finally {
      await app.close();
      await upstream.close();
    }
  });
});

describe('/ingest rate limit', () => {
  it('counts against the general API limit per client IP', async () => {
    const upstream = await startUpstream();
    const app = await bootApp({
      env: {
        SERVICE_AUTHLESS: 'true',
        ANALYTICS_KEY: 'phc_test',
        ANALYTICS_UPSTREAM_URL: upstream.url,
        RATE_LIMIT_ENABLED: 'true',
        RATE_LIMIT_MAX: '2',
      },
    });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await request(`${app.url}/ingest/e/`)).status);
      expect(statuses).toEqual([201, 201, 429]);
      expect((await request(`${app.api}/mode`)).status).toBe(429);
      expect(upstream.received).toHaveLength(2);
    } finally {
      await app.close();
      await upstream.close();
    }
  });
});
