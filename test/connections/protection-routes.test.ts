import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeChangeByPermission } from '../../contracts/permissions.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { asBrowser, bearer, signUp } from '../helpers/auth.js';
import { fillPath, isConnectionScoped, isQueueScoped, permissionedRoutes, type RouteInfo } from '../helpers/routes.js';
import { redisUrl, uniquePrefix } from '../helpers/stores.js';

/**
 * Every connection route, read from the router (routes added later are
 * covered), against one environment connection per protection. Queue `q` and
 * the other path values name nothing that exists, so a call the protection
 * lets through ends in a 404 or 400 and changes nothing.
 */
const routes = permissionedRoutes().filter(isConnectionScoped);
const changeOf = (route: RouteInfo) => storeChangeByPermission[route.permission];
const writes = routes.filter((route) => changeOf(route) !== 'none');
const destroys = routes.filter((route) => changeOf(route) === 'destroy');
const label = (route: RouteInfo) => `${route.method} ${route.path}`;
const missingKey = `protection-test-${randomBytes(4).toString('hex')}`;

describe('protected connections: every route', () => {
  let app: TestApp;
  const tokens: Record<'owner' | 'operator', string> = { owner: '', operator: '' };
  beforeAll(async () => {
    const connections = { RO: 'read-only', CONFIRM: 'confirm', GUARDED: 'admin', OPEN: 'none' };
    const env: Record<string, string> = { SERVICE_ENV_CONNECTIONS: 'true' };
    for (const [name, protection] of Object.entries(connections)) {
      Object.assign(env, { [`SERVICE_REDIS_URL_${name}`]: `${redisUrl}/0`, [`SERVICE_REDIS_URL_${name}_PREFIX`]: uniquePrefix(), [`SERVICE_REDIS_URL_${name}_PROTECTION`]: protection });
    }
    app = await bootApp({ env });
    const owner = await signUp(app, 'owner');
    for (const role of ['owner', 'operator'] as const) {
      const created = await request(`${app.api}/auth/tokens`, { method: 'POST', headers: asBrowser(app, owner), body: { name: role, role } });
      tokens[role] = created.body.token;
    }
  });
  afterAll(() => app?.close());

  /** A REST call of the route on a connection; `body` goes in the JSON body (DELETE: merged under the query). */
  const call = (route: RouteInfo, connectionId: string, role: 'owner' | 'operator', body: Record<string, unknown> = {}) =>
    request(`${app.api}${fillPath(route.path, { connectionId, queueName: 'q', key: missingKey })}`, {
      method: route.method,
      headers: bearer(tokens[role]),
      body: route.method === 'GET' ? undefined : body,
    });

  it('classifies the routes it must', () => {
    expect(writes.map(label)).toEqual(expect.arrayContaining(['POST /c/{connectionId}/queues/{queueName}/pause', 'POST /c/{connectionId}/queues/{queueName}/jobs', 'DELETE /c/{connectionId}/tasks/{taskId}']));
    expect(destroys.map(label).sort()).toEqual([
      'DELETE /c/{connectionId}/queues/{queueName}',
      'DELETE /c/{connectionId}/queues/{queueName}/jobs/{jobId}/logs',
      'DELETE /c/{connectionId}/queues/{queueName}/jobs/{jobId}/stacktraces',
      'DELETE /c/{connectionId}/scheduled-jobs/queue/{queueName}/{schedulerId}',
      'DELETE /c/{connectionId}/store-keys/{key}',
      'POST /c/{connectionId}/jobs/remove',
      'POST /c/{connectionId}/queues/{queueName}/clean',
      'POST /c/{connectionId}/queues/{queueName}/jobs/remove',
      'POST /c/{connectionId}/queues/{queueName}/obliterate',
      'POST /c/{connectionId}/queues/{queueName}/purge',
    ]);
  });

  it.each(routes.map((route) => [label(route), route] as const))('read-only: %s', async (_name, route) => {
    const response = await call(route, 'ro', 'owner');
    if (changeOf(route) === 'none') {
      expect(response.body.code, 'reads stay allowed').not.toBe('CONNECTION_PROTECTED');
      return;
    }
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ code: 'CONNECTION_PROTECTED', connectionId: 'ro', protection: 'read-only', permission: route.permission });
    expect(response.body.message).toContain('Connection "ro" is read-only (protection: read-only, set by SERVICE_REDIS_URL_RO_PROTECTION)');
  });

  it('read-only over tRPC: every write procedure is refused the same way, every read passes', async () => {
    for (const route of routes) {
      const input = { connectionId: 'ro', queueName: 'q', jobId: 'x', key: missingKey, taskId: 'x', schedulerId: 'x', ruleId: 'x', eventId: 'x' };
      const url = `${app.api}/trpc/${route.procedure}`;
      const response = route.mutation
        ? await request(url, { method: 'POST', headers: bearer(tokens.owner), body: input })
        : await request(`${url}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: bearer(tokens.owner) });
      const code = response.body.error?.data?.code;
      if (changeOf(route) === 'none') expect(code, route.procedure).not.toBe('CONNECTION_PROTECTED');
      else expect([response.status, code, response.body.error.message], route.procedure).toEqual([403, 'CONNECTION_PROTECTED', expect.stringContaining('read-only')]);
    }
  });

  it('confirm: every destructive route needs confirmName (the queue name, or the connection name), the other writes do not', async () => {
    for (const route of writes) {
      const expected = isQueueScoped(route) ? 'q' : 'confirm';
      const bare = await call(route, 'confirm', 'owner');
      const wrong = await call(route, 'confirm', 'owner', { confirmName: `${expected}-typo` });
      const confirmed = await call(route, 'confirm', 'owner', { confirmName: expected });
      expect(confirmed.body.code, label(route)).not.toBe('CONNECTION_PROTECTED');
      if (changeOf(route) !== 'destroy') {
        expect(bare.body.code, label(route)).not.toBe('CONNECTION_PROTECTED');
        continue;
      }
      for (const refused of [bare, wrong]) {
        expect([refused.status, refused.body.code, refused.body.confirmName], label(route)).toEqual([403, 'CONNECTION_PROTECTED', expected]);
        expect(refused.body.message).toContain(`(protection: confirm, set by SERVICE_REDIS_URL_CONFIRM_PROTECTION): send confirmName "${expected}"`);
      }
    }
  });

  it('confirm: the name to send is the decoded queue name of the path', async () => {
    const url = `${app.api}/c/confirm/queues/${encodeURIComponent('mail out/bound%')}/clean`;
    const refused = await request(url, { method: 'POST', headers: bearer(tokens.owner), body: { status: 'failed' } });
    expect([refused.status, refused.body.confirmName]).toEqual([403, 'mail out/bound%']);
    const confirmed = await request(url, { method: 'POST', headers: bearer(tokens.owner), body: { status: 'failed', confirmName: 'mail out/bound%' } });
    expect([confirmed.status, confirmed.body.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('admin: destructive routes need the admin role on top of their permission; other writes keep theirs', async () => {
    for (const route of writes) {
      const asOperator = await call(route, 'guarded', 'operator');
      const asOwner = await call(route, 'guarded', 'owner');
      expect(asOwner.body.code, label(route)).not.toBe('CONNECTION_PROTECTED');
      if (changeOf(route) !== 'destroy') expect(asOperator.body.code, label(route)).not.toBe('CONNECTION_PROTECTED');
      // Purge, obliterate, delete, key and scheduler deletes already need admin: the permission check answers first.
      else if (asOperator.body.code === 'FORBIDDEN') expect(asOperator.body.permission).toBe(route.permission);
      else expect([asOperator.status, asOperator.body.code, asOperator.body.message], label(route)).toEqual([403, 'CONNECTION_PROTECTED', expect.stringContaining('needs the admin role, yours is operator')]);
    }
  });

  it('none: no route is refused for protection', async () => {
    for (const route of destroys) expect((await call(route, 'open', 'operator')).body.code, label(route)).not.toBe('CONNECTION_PROTECTED');
  });

  it('a dry run changes nothing and passes a read-only connection', async () => {
    const dryRun = await request(`${app.api}/c/ro/jobs/remove`, { method: 'POST', headers: bearer(tokens.owner), body: { status: 'failed', dryRun: true } });
    expect(dryRun.status).toBe(200);
    expect(dryRun.body).toMatchObject({ dryRun: true, succeeded: 0 });
  });

  it('the event stream (a plain route) is a read: allowed on a read-only connection', async () => {
    const events = await request(`${app.api}/c/ro/queues/q/events`, { headers: bearer(tokens.owner) });
    expect(events.status).toBe(404);
    expect(events.body.code).toBe('NOT_FOUND');
  });
});
