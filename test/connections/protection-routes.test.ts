import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeChangeByPermission } from '../../contracts/permissions.js';
import type { ConnectionProtection } from '../../contracts/protection.js';
import { request } from '../helpers/app.js';
import { isConnectionScoped, permissionedRoutes, type RouteInfo } from '../helpers/routes.js';
import { deleteKeysMatching } from '../helpers/stores.js';
import { prepareTargets, storeSnapshot } from '../auth/support/matrix-fixtures.js';
import { matrixRoutes, type CaseTargets } from '../auth/support/matrix-routes.js';
import { callRoute, type Transport } from '../auth/support/matrix-transport.js';
import { MatrixWorld } from '../auth/support/matrix-world.js';

/**
 * Every connection route, read from the router (routes added later are
 * covered), with its documented input against a fresh copy of a queue in
 * every state, on one saved connection per protection. The adversarial
 * matrix (test/auth/adversarial-matrix.test.ts) samples the wider product;
 * this sweeps every route through each protection in full.
 */
const routes = permissionedRoutes().filter(isConnectionScoped);
const changeOf = (route: RouteInfo) => storeChangeByPermission[route.permission];
const writes = routes.filter((route) => changeOf(route) !== 'none');
const destroys = routes.filter((route) => changeOf(route) === 'destroy');
const label = (route: RouteInfo) => `${route.method} ${route.path}`;

describe('protected connections: every route', () => {
  let world: MatrixWorld;
  beforeAll(async () => {
    world = await MatrixWorld.boot();
  }, 120_000);
  afterAll(() => world?.close());

  /** The route called with its documented input (changed by `edit`) by `role` on the connection of `protection`. */
  async function call(
    route: RouteInfo,
    protection: ConnectionProtection,
    role: 'owner' | 'operator',
    edit = (input: Record<string, unknown>, _t: CaseTargets) => input,
    transport: Transport = 'rest',
  ) {
    const connection = world.connections[protection];
    const entry = matrixRoutes[route.procedure]!;
    const t = await prepareTargets(world, connection, entry.needs ?? []);
    const before = await storeSnapshot(world, connection);
    const answer = await callRoute(transport, {
      api: world.app.api,
      procedure: route.procedure,
      method: route.method,
      path: route.path,
      input: edit(entry.input(t), t),
      headers: world.caller(role, 'same', true).headers,
    });
    const changed = (await storeSnapshot(world, connection)) !== before;
    await deleteKeysMatching(world.redis, `${connection.prefix}*`);
    return { ...answer, body: answer.body as any, changed, t };
  }

  it('classifies the routes it must', () => {
    expect(writes.map(label)).toEqual(
      expect.arrayContaining([
        'POST /c/{connectionId}/queues/{queueName}/pause',
        'POST /c/{connectionId}/queues/{queueName}/jobs',
        'DELETE /c/{connectionId}/tasks/{taskId}',
      ]),
    );
    expect(destroys.map(label).sort()).toEqual([
      'DELETE /c/{connectionId}/queues/{queueName}',
      'DELETE /c/{connectionId}/queues/{queueName}/jobs/{jobId}/logs',
      'DELETE /c/{connectionId}/queues/{queueName}/jobs/{jobId}/stacktraces',
      'DELETE /c/{connectionId}/scheduled-jobs/queue/{queueName}/{schedulerId}',
      'DELETE /c/{connectionId}/store-keys/{key}',
      'POST /c/{connectionId}/jobs/remove',
      'POST /c/{connectionId}/queues/{queueName}/clean',
      'POST /c/{connectionId}/queues/{queueName}/jobs/move',
      'POST /c/{connectionId}/queues/{queueName}/jobs/remove',
      'POST /c/{connectionId}/queues/{queueName}/obliterate',
      'POST /c/{connectionId}/queues/{queueName}/purge',
    ]);
  });

  it.each(writes.map((route) => [label(route), route] as const))(
    'read-only refuses %s, naming the setting, and changes nothing',
    async (_name, route) => {
      for (const transport of ['rest', 'trpc'] as const) {
        const refused = await call(route, 'read-only', 'owner', undefined, transport);
        expect([refused.status, refused.code, refused.changed], transport).toEqual([
          403,
          'CONNECTION_PROTECTED',
          false,
        ]);
        const message = transport === 'rest' ? refused.body.message : refused.body.error.message;
        expect(message).toContain('Connection "conn-read-only" is read-only (protection: read-only)');
      }
    },
  );

  it.each(routes.filter((route) => !route.mutation).map((route) => [label(route), route] as const))(
    'read-only lets the read %s through',
    async (_name, route) => {
      const connection = world.connections['read-only'];
      await world.template.copyTo(connection.prefix, 'q');
      const path = route.path.replace(/\{(\w+)\}/g, (_match, name: string) =>
        name === 'connectionId' ? connection.id : name === 'queueName' ? 'q' : 'f1',
      );
      const response = await request(`${world.app.api}${path}`, {
        headers: world.caller('owner', 'same', true).headers,
      });
      expect(response.body.code, label(route)).not.toBe('CONNECTION_PROTECTED');
      await deleteKeysMatching(world.redis, `${connection.prefix}*`);
    },
  );

  it.each(destroys.map((route) => [label(route), route] as const))(
    'confirm: %s needs confirmName exactly (the queue name, or the connection name)',
    async (_name, route) => {
      const withoutName = ({ confirmName: _confirmName, ...input }: Record<string, unknown>) => input;
      const shouted = (input: Record<string, unknown>) => ({
        ...input,
        confirmName: String(input.confirmName).toUpperCase(),
      });
      const bare = await call(route, 'confirm', 'owner', withoutName);
      const wrong = await call(route, 'confirm', 'owner', shouted);
      const confirmed = await call(route, 'confirm', 'owner');
      const expected = route.path.includes('{queueName}') ? bare.t.queueName : 'conn-confirm';
      // purge, obliterate and delete require confirmName in their contract: a missing one is a 400 before any protection.
      if (bare.status !== 400)
        expect([bare.status, bare.code, bare.body.confirmName]).toEqual([403, 'CONNECTION_PROTECTED', expected]);
      expect([wrong.status, wrong.code, wrong.changed]).toEqual([403, 'CONNECTION_PROTECTED', false]);
      expect(bare.changed).toBe(false);
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBeLessThan(410);
      expect(confirmed.code).not.toBe('CONNECTION_PROTECTED');
    },
  );

  it.each(writes.filter((route) => changeOf(route) === 'write').map((route) => [label(route), route] as const))(
    'confirm: %s (not destructive) needs no confirmName',
    async (_name, route) => {
      const answer = await call(route, 'confirm', 'owner');
      expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
    },
  );

  it.each(destroys.map((route) => [label(route), route] as const))(
    'admin: %s needs the admin role on top of its permission',
    async (_name, route) => {
      const asOperator = await call(route, 'admin', 'operator');
      const asOwner = await call(route, 'admin', 'owner');
      expect(asOwner.code).not.toBe('CONNECTION_PROTECTED');
      expect(asOperator.changed).toBe(false);
      // Purge, obliterate, delete, key and scheduler deletes already need admin: the permission check answers first.
      if (asOperator.code === 'FORBIDDEN') expect(asOperator.body.permission).toBe(route.permission);
      else
        expect([asOperator.status, asOperator.code, asOperator.body.message]).toEqual([
          403,
          'CONNECTION_PROTECTED',
          expect.stringContaining('needs the admin role, yours is operator'),
        ]);
    },
  );

  it.each(destroys.map((route) => [label(route), route] as const))(
    'none: %s is not refused for protection',
    async (_name, route) => {
      const answer = await call(route, 'none', 'operator');
      expect(answer.code).not.toBe('CONNECTION_PROTECTED');
    },
  );

  it('a dry run changes nothing and passes a read-only connection', async () => {
    const route = routes.find((candidate) => candidate.procedure === 'jobs.remove')!;
    const dryRun = await call(route, 'read-only', 'owner', (input) => ({ ...input, dryRun: true }));
    expect([dryRun.status, dryRun.body.matched, dryRun.changed]).toEqual([200, 1, false]);
  });

  it('a dryRun the route does not take is refused by name: the action does not run', async () => {
    const route = routes.find((candidate) => candidate.procedure === 'queues.pause')!;
    const refused = await call(route, 'read-only', 'owner', (input) => ({ ...input, dryRun: true }));
    expect([refused.status, refused.code, refused.body.fields, refused.changed]).toEqual([
      400,
      'UNKNOWN_FIELD',
      ['dryRun'],
      false,
    ]);
  });

  it('confirm: the name to send is the decoded queue name of the path', async () => {
    const connection = world.connections.confirm;
    const name = 'mail out/bound%';
    await world.template.copyTo(connection.prefix, name);
    const url = `${world.app.api}/c/${connection.id}/queues/${encodeURIComponent(name)}/clean`;
    const headers = world.caller('owner', 'same', true).headers;
    const refused = await request(url, { method: 'POST', headers, body: { status: 'failed' } });
    expect([refused.status, refused.body.confirmName]).toEqual([403, name]);
    const confirmed = await request(url, { method: 'POST', headers, body: { status: 'failed', confirmName: name } });
    expect([confirmed.status, confirmed.body.removed]).toEqual([200, 1]);
    await deleteKeysMatching(world.redis, `${connection.prefix}*`);
  });

  it('the event stream (a plain route) is a read: allowed on a read-only connection', async () => {
    const events = await request(`${world.app.api}/c/${world.connections['read-only'].id}/queues/nothing-here/events`, {
      headers: world.caller('owner', 'same', true).headers,
    });
    expect([events.status, events.body.code]).toEqual([404, 'NOT_FOUND']);
  });
});
