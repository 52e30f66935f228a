import type { Role } from './system.js';

/** Roles from least to most privileged; each role may do everything the ones before it may. */
export const roleOrder: readonly Role[] = ['viewer', 'operator', 'admin', 'owner'];

/**
 * Every action a procedure can perform, and the least role allowed to perform
 * it. The one permission table: procedures name their action in
 * `meta.permission`, the auth middleware checks it here, the audit trail
 * records it by the same name.
 */
export const minimumRoleByPermission = {
  'connections.read': 'viewer',
  'connections.test': 'operator',
  'connections.write': 'admin',
  'queues.read': 'viewer',
  'queues.discover': 'operator',
  'queues.pause': 'operator',
  'queues.limits': 'operator',
  'queues.clean': 'operator',
  'queues.purge': 'admin',
  'queues.obliterate': 'admin',
  'queues.delete': 'admin',
  'jobs.read': 'viewer',
  'jobs.add': 'operator',
  'jobs.retry': 'operator',
  'jobs.remove': 'operator',
  'jobs.invoke': 'operator',
  'jobs.move': 'operator',
  'jobs.edit': 'operator',
  'jobs.stacktraces.clear': 'operator',
  'jobs.logs.clear': 'operator',
  'schedulers.read': 'viewer',
  'schedulers.write': 'admin',
  'schedulers.delete': 'admin',
  'workers.read': 'viewer',
  'metrics.read': 'viewer',
  'history.read': 'viewer',
  'alerts.read': 'viewer',
  'alerts.write': 'admin',
  'tasks.read': 'viewer',
  'tasks.cancel': 'operator',
  'keys.read': 'viewer',
  'keys.delete': 'admin',
  'organizations.read': 'viewer',
  'organizations.write': 'owner',
  'members.read': 'viewer',
  'members.write': 'owner',
  'members.password-reset': 'admin',
  'invitations.read': 'admin',
  'invitations.write': 'admin',
  'tokens.manage': 'viewer',
  'organizations.create': 'viewer',
  'session.write': 'viewer',
  'audit.read': 'admin',
  // Definitions carry connections, protection, schedulers and alerting: what admins change.
  'definitions.read': 'admin',
  'definitions.write': 'admin',
} as const satisfies Record<string, Role>;

export type Permission = keyof typeof minimumRoleByPermission;

export function roleAllows(role: Role, permission: Permission): boolean {
  return roleOrder.indexOf(role) >= roleOrder.indexOf(minimumRoleByPermission[permission]);
}

/**
 * What each action changes in a connection's store: `write` changes it,
 * `destroy` removes what cannot be brought back (jobs, logs, keys, a queue, a
 * scheduler), `none` changes nothing there (reads, and Bullpen's own records:
 * accounts, alert rules, saved connections). A connection's `protection`
 * decides by this table (server/auth/connection-protection.ts): `read-only`
 * refuses `write` and `destroy`, `admin` and `confirm` guard `destroy`.
 */
export const storeChangeByPermission = {
  'connections.read': 'none',
  'connections.test': 'none',
  'connections.write': 'none',
  'queues.read': 'none',
  'queues.discover': 'none',
  'queues.pause': 'write',
  'queues.limits': 'write',
  'queues.clean': 'destroy',
  'queues.purge': 'destroy',
  'queues.obliterate': 'destroy',
  'queues.delete': 'destroy',
  'jobs.read': 'none',
  'jobs.add': 'write',
  'jobs.retry': 'write',
  'jobs.remove': 'destroy',
  'jobs.invoke': 'write',
  // A move empties its source: destructive there (its protection decides), a write on its target.
  'jobs.move': 'destroy',
  'jobs.edit': 'write',
  'jobs.stacktraces.clear': 'destroy',
  'jobs.logs.clear': 'destroy',
  'schedulers.read': 'none',
  'schedulers.write': 'write',
  'schedulers.delete': 'destroy',
  'workers.read': 'none',
  'metrics.read': 'none',
  'history.read': 'none',
  'alerts.read': 'none',
  'alerts.write': 'none',
  'tasks.read': 'none',
  // Tasks act on the store; on a read-only connection none runs (server/tasks/task-runner.ts).
  'tasks.cancel': 'write',
  'keys.read': 'none',
  'keys.delete': 'destroy',
  'organizations.read': 'none',
  'organizations.write': 'none',
  'members.read': 'none',
  'members.write': 'none',
  'members.password-reset': 'none',
  'invitations.read': 'none',
  'invitations.write': 'none',
  'tokens.manage': 'none',
  'organizations.create': 'none',
  'session.write': 'none',
  'audit.read': 'none',
  'definitions.read': 'none',
  // An import may set queue settings and schedulers; each connection's protection is applied to its part.
  'definitions.write': 'write',
} as const satisfies Record<Permission, 'none' | 'write' | 'destroy'>;

export type StoreChange = (typeof storeChangeByPermission)[Permission];
