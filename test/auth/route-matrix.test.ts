import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { addMember, asBrowser, signUp, type SignedInUser } from '../helpers/auth.js';
import {
  bodyFor,
  fillPath,
  isBeyondViewer,
  isConnectionScoped,
  permissionedRoutes,
  type RouteInfo,
} from '../helpers/routes.js';

/**
 * Generic: every procedure with a `meta.permission` and a REST path is
 * checked, read from appRouter, so routes merged later are covered as they land.
 */
const routes = permissionedRoutes();
const label = (route: RouteInfo) => `${route.method} ${route.path}`;
describe('route matrix', () => {
  let app: TestApp;
  let ownerA: SignedInUser;
  let viewerA: SignedInUser;
  let memberB: SignedInUser;
  let connectionId: string;
  beforeAll(async () => {
    app = await bootApp();
    [ownerA, viewerA, memberB] = await Promise.all([
      signUp(app, 'owner-a'),
      signUp(app, 'viewer-a'),
      signUp(app, 'member-b'),
    ]);
    await addMember(app, ownerA, ownerA.organizationId, viewerA, 'viewer');
    const created = await request(`${app.api}/connections`, {
      method: 'POST',
      headers: asBrowser(app, ownerA),
      body: { name: 'A store', url: 'redis://127.0.0.1:1' },
    });
    connectionId = created.body.id;
  });
  afterAll(() => app.close());

  const call = (route: RouteInfo, headers: Record<string, string>, organizationId: string) =>
    request(
      `${app.api}${fillPath(route.path, { connectionId, id: route.path.startsWith('/connections/') ? connectionId : 'x', organizationId })}`,
      { method: route.method, headers, body: bodyFor(route.method) },
    );

  it('covers the routes it must', () => {
    const paths = routes.map(label);
    expect(paths).toEqual(
      expect.arrayContaining([
        'GET /audit',
        'POST /auth/tokens',
        'DELETE /organizations/{organizationId}/members/{userId}',
      ]),
    );
  });

  it.each(routes.map((route) => [label(route), route] as const))('%s: unauthenticated → 401', async (_name, route) => {
    const response = await call(route, {}, ownerA.organizationId);
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('UNAUTHORIZED');
  });

  it.each(routes.filter(isBeyondViewer).map((route) => [label(route), route] as const))(
    '%s: viewer → 403',
    async (_name, route) => {
      const response = await call(
        route,
        asBrowser(app, viewerA, { 'x-organization-id': ownerA.organizationId }),
        ownerA.organizationId,
      );
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('FORBIDDEN');
      expect(response.body.message).toContain(route.permission);
    },
  );

  const otherOrganizationRoutes = routes.filter(
    (route) =>
      isConnectionScoped(route) || route.path.includes('{organizationId}') || route.path === '/connections/{id}',
  );
  it.each(otherOrganizationRoutes.map((route) => [label(route), route] as const))(
    '%s: other organization → 403',
    async (_name, route) => {
      const response = await call(route, asBrowser(app, memberB), ownerA.organizationId);
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('FORBIDDEN');
    },
  );

  /** The same procedure over tRPC: its input is the REST path's parameters, filled as above. */
  const callTrpc = (route: RouteInfo, headers: Record<string, string>, organizationId: string) => {
    const values: Record<string, string> = {
      connectionId,
      id: route.path.startsWith('/connections/') ? connectionId : 'x',
      organizationId,
    };
    const input = Object.fromEntries(
      [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, values[name!] ?? 'x']),
    );
    const url = `${app.api}/trpc/${route.procedure}`;
    return route.mutation
      ? request(url, { method: 'POST', headers, body: input })
      : request(`${url}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers });
  };
  it.each(otherOrganizationRoutes.map((route) => [route.procedure, route] as const))(
    'tRPC %s: other organization → 403',
    async (_name, route) => {
      const response = await callTrpc(route, asBrowser(app, memberB), ownerA.organizationId);
      expect(response.status).toBe(403);
      expect(JSON.stringify(response.body)).toContain('FORBIDDEN');
    },
  );

  it('applies to the queue event stream (not a procedure): 401 unauthenticated, 403 for another organization', async () => {
    const url = `${app.api}/c/${connectionId}/queues/q/events`;
    expect((await request(url)).status).toBe(401);
    expect((await request(url, { headers: { cookie: memberB.cookie } })).status).toBe(403);
  });

  it.runIf(routes.some(isConnectionScoped))(
    'lets the connection’s own organization past the check (the 403s above are not blanket)',
    async () => {
      const probe = routes.find(isConnectionScoped)!;
      const own = await call(probe, asBrowser(app, ownerA), ownerA.organizationId);
      expect(own.status).not.toBe(403);
      expect(own.status).not.toBe(401);
      const ownOverTrpc = await callTrpc(probe, asBrowser(app, ownerA), ownerA.organizationId);
      expect([401, 403]).not.toContain(ownOverTrpc.status);
    },
  );
});
