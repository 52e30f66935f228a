import { request as httpRequest } from 'node:http';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../helpers/app.js';
import { asBrowser, signUp, type SignedInUser } from '../helpers/auth.js';
import { storeFixture } from '../helpers/stores.js';
import { startUpstream } from '../ingest/support/analytics-upstream.js';

/** The status and headers of one request, body discarded (the event stream is cut after its headers). */
function headersOf(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      resolve({ status: res.statusCode!, headers: res.headers });
      res.destroy();
    });
    call.on('error', reject);
    call.end(init.body);
  });
}

describe('security headers on every response', () => {
  let app: TestApp;
  let owner: SignedInUser;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  const store = storeFixture();
  let queue: Queue;
  beforeAll(async () => {
    upstream = await startUpstream();
    app = await bootApp({
      env: { ...store.env, SERVICE_AUTHLESS: 'false', ANALYTICS_KEY: 'phc_test', ANALYTICS_UPSTREAM_URL: upstream.url },
    });
    owner = await signUp(app, 'headers');
    queue = new Queue('emails', store.bullmq);
    await queue.add('welcome', {});
  });
  afterAll(async () => {
    await queue?.close();
    await app?.close();
    await upstream?.close();
    await store.cleanup();
  });

  const json = { 'content-type': 'application/json' };
  const cases = (): Array<[string, string, Parameters<typeof headersOf>[1]]> => [
    ['the service index', `${app.url}/`, {}],
    ['the API index', `${app.api}`, {}],
    ['the OpenAPI document', `${app.api}/openapi.json`, {}],
    ['the docs page', `${app.api}/docs/`, {}],
    ['a docs asset', `${app.api}/docs/swagger-ui.css`, {}],
    ['a REST read (answered before express)', `${app.api}/connections`, { headers: asBrowser(app, owner) }],
    ['a REST read without credentials (401)', `${app.api}/connections`, {}],
    ['a REST write refused (400)', `${app.api}/auth/sign-out`, { method: 'POST', headers: json, body: '{"oops":' }],
    ['a tRPC call', `${app.api}/trpc/system.health`, {}],
    ['a tRPC error', `${app.api}/trpc/no.such.procedure`, {}],
    ['an unknown API path (404)', `${app.api}/no/such/route`, {}],
    ['an unknown path (404)', `${app.url}/elsewhere`, { method: 'DELETE' }],
    ['a wrong method (405)', `${app.api}/health`, { method: 'PUT', headers: json, body: '{}' }],
    ['the metrics route', `${app.api}/prometheus`, {}],
    ['the event stream', `${app.api}/c/main/queues/emails/events`, { headers: asBrowser(app, owner) }],
    ['a sign-in redirect route (404)', `${app.api}/auth/sign-in/nobody`, {}],
    ['the audit export', `${app.api}/audit/export`, { headers: asBrowser(app, owner) }],
    ['the analytics proxy (its upstream sends another Referrer-Policy)', `${app.url}/ingest/e/`, {}],
  ];

  it('carries X-Content-Type-Options: nosniff and Referrer-Policy: no-referrer', async () => {
    const seen = [];
    for (const [what, url, init] of cases()) {
      const { status, headers } = await headersOf(url, init);
      seen.push({ what, status, nosniff: headers['x-content-type-options'], referrer: headers['referrer-policy'] });
    }
    expect(seen).toEqual(
      seen.map(({ what, status }) => ({ what, status, nosniff: 'nosniff', referrer: 'no-referrer' })),
    );
    expect(new Set(seen.map(({ status }) => status)).size).toBeGreaterThan(4);
  });

  it('gives /api/docs a Content-Security-Policy limited to its own assets, framed by no one', async () => {
    const { headers } = await headersOf(`${app.api}/docs/`);
    const policy = String(headers['content-security-policy']);
    const directives = new Map(
      policy
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .map(([name, ...values]) => [name!, values]),
    );
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    // Only this origin (and inline styles, data: images): no scheme or host anywhere.
    expect(policy).not.toMatch(/https?:|\*|wss?:|'unsafe-eval'/);
    expect(headers['x-frame-options']).toBe('DENY');
  });
});
