import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { asBrowser, signUp } from '../helpers/auth.js';
import { queueUrl } from '../helpers/jobs.js';
import { queueTestBed } from '../helpers/queues.js';

const bed = queueTestBed();
const { fixture } = bed;
const url = (queueName: string) => queueUrl(bed.app, fixture, queueName);

/** A request with exactly these headers and body: fetch adds no content type of its own to a missing body. */
const raw = (target: string, method: string, headers: Record<string, string> = {}, body?: string) =>
  fetch(target, { method, headers, ...(body === undefined ? {} : { body }) }).then(async (response) => ({
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as any,
  }));

describe('a request without a body is the empty object (rule 1)', () => {
  it('pauses and resumes with no body, whatever the content type says', async () => {
    const queue = await bed.seeded('nobody-pause', { waiting: 1 });
    const paused = await raw(`${url('nobody-pause')}/pause`, 'POST');
    expect(paused).toMatchObject({ status: 200, body: { success: true, isPaused: true } });
    expect(await queue.isPaused()).toBe(true);
    const resumed = await raw(`${url('nobody-pause')}/resume`, 'POST', {
      'content-type': 'text/plain',
      'content-length': '0',
    });
    expect(resumed).toMatchObject({ status: 200, body: { isPaused: false } });
    expect(await queue.isPaused()).toBe(false);
  });

  it('is 400 naming the required fields where there are some', async () => {
    await bed.seeded('nobody-clean', { failed: 1 });
    const clean = await raw(`${url('nobody-clean')}/clean`, 'POST');
    expect(clean.status).toBe(400);
    expect(clean.body.code).toBe('VALIDATION_FAILED');
    expect(clean.body.issues.map((issue: { path: string[] }) => issue.path.join('.'))).toEqual(['status']);
    const remove = await raw(url('nobody-clean'), 'DELETE');
    expect(remove.status).toBe(400);
    expect(remove.body.message).toMatch(/confirmName/);
  });

  it('refuses a non-empty body that is not JSON with 415', async () => {
    const response = await raw(`${url('nobody-clean')}/jobs`, 'POST', { 'content-type': 'text/plain' }, 'name=x');
    expect(response).toMatchObject({
      status: 415,
      body: { code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringMatching(/JSON/) },
    });
    const untyped = await fetch(`${url('nobody-clean')}/jobs`, { method: 'POST', body: new Uint8Array([123, 125]) });
    expect(untyped.status).toBe(415);
  });
});

describe('methods and literal paths (rule 6)', () => {
  it('answers a known path asked with another method 405 with Allow', async () => {
    const cases: Array<[string, string, string]> = [
      ['GET', `${url('any')}/jobs/retry`, 'POST'],
      ['GET', `${bed.app.api}/auth/sign-in/email`, 'POST'],
      ['DELETE', `${bed.app.api}/health`, 'GET'],
      ['POST', `${bed.app.api}/prometheus`, 'GET'],
      ['PUT', `${url('any')}/pause`, 'POST'],
    ];
    for (const [method, target, allow] of cases) {
      const response = await raw(target, method);
      expect({
        method,
        target,
        status: response.status,
        allow: response.headers.get('allow'),
        code: response.body.code,
      }).toEqual({
        method,
        target,
        status: 405,
        allow,
        code: 'METHOD_NOT_ALLOWED',
      });
    }
    const queue = await raw(url('any'), 'PATCH');
    expect(queue.headers.get('allow')).toBe('DELETE, GET');
  });

  it('refuses another method 405 before reading its body (a non-JSON body is not a 415 there)', async () => {
    const response = await raw(`${url('any')}/jobs/retry`, 'PUT', { 'content-type': 'text/plain' }, 'not json');
    expect({ status: response.status, allow: response.headers.get('allow') }).toEqual({ status: 405, allow: 'POST' });
  });

  it('answers HEAD on a GET route as the GET: its status and headers, no body', async () => {
    await bed.seeded('nobody-head', { waiting: 1 });
    const target = `${url('nobody-head')}/jobs?status=waiting`;
    const [get, head] = await Promise.all([fetch(target), fetch(target, { method: 'HEAD' })]);
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(await head.text()).toBe('');
    expect(((await get.json()) as { jobs: unknown[] }).jobs).toHaveLength(1);
  });

  it('still answers unknown paths 404', async () => {
    expect((await raw(`${bed.app.api}/no-such-route`, 'GET')).status).toBe(404);
  });

  it('points GET / and GET /api at the reference and the document', async () => {
    for (const target of [`${bed.app.url}/`, bed.app.api]) {
      const response = await raw(target, 'GET');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ docs: '/api/docs', openapi: '/api/openapi.json', mcp: '/api/mcp' });
    }
    expect((await raw(`${bed.app.api}/openapi.json`, 'GET')).status).toBe(200);
  });
});

describe('sign-out without a body (rule 1, authenticated)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp();
  });
  afterAll(() => app.close());

  it('ends the session', async () => {
    const user = await signUp(app, 'leaver');
    const headers = asBrowser(app, user);
    expect((await request(`${app.api}/session`, { headers })).body.authenticated).toBe(true);
    const signedOut = await raw(`${app.api}/auth/sign-out`, 'POST', headers);
    expect(signedOut).toMatchObject({ status: 200, body: { success: true } });
    expect((await request(`${app.api}/session`, { headers })).body.authenticated).toBe(false);
  });
});
