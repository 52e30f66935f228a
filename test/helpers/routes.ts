import { minimumRoleByPermission, type Permission } from '../../contracts/permissions.js';
import { appRouter } from '../../routers/_app.js';
import { partsOf, proceduresOf } from '../../server/trpc/trpc-internals.js';
import type { ProcedureMeta } from '../../server/trpc/init.js';

export interface RouteInfo {
  procedure: string;
  method: string;
  /** OpenAPI path under /api, with `{param}` placeholders. */
  path: string;
  permission: Permission;
  mutation: boolean;
  /** How a route under a queue uses it (meta.queue): `create` routes make a missing queue. */
  queueUse: ProcedureMeta['queue'];
}

/** Every REST route that declares a permission, read from the router itself: routes added later are included. */
export function permissionedRoutes(): RouteInfo[] {
  return Object.entries(proceduresOf(appRouter)).flatMap(([procedure, definition]) => {
    const { meta, type } = partsOf(definition);
    if (!meta?.permission || !meta.openapi) return [];
    return [
      {
        procedure,
        method: meta.openapi.method,
        path: meta.openapi.path,
        permission: meta.permission,
        mutation: type === 'mutation',
        queueUse: meta.queue,
      },
    ];
  });
}

export const isConnectionScoped = (route: RouteInfo) => route.path.startsWith('/c/{connectionId}');

/** Routes under one queue: `/c/{connectionId}/queues/{queueName}…` and `scheduled-jobs/queue/{queueName}…`. */
export const isQueueScoped = (route: RouteInfo) =>
  /^\/c\/\{connectionId\}\/(queues|scheduled-jobs\/queue)\/\{queueName\}/.test(route.path);

/** Mutations a viewer may not perform. */
export const isBeyondViewer = (route: RouteInfo) =>
  route.mutation && minimumRoleByPermission[route.permission] !== 'viewer';

/** The path with every placeholder filled: the given values, else a harmless `x`. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(values[name] ?? 'x'));
}

/** A request body for the method (the adapter wants JSON on POST/PUT/PATCH). */
export const bodyFor = (method: string) => (['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined);
