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
  'jobs.logs.clear': 'operator',
  'schedulers.read': 'viewer',
  'schedulers.write': 'admin',
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
} as const satisfies Record<string, Role>;

export type Permission = keyof typeof minimumRoleByPermission;

export function roleAllows(role: Role, permission: Permission): boolean {
  return roleOrder.indexOf(role) >= roleOrder.indexOf(minimumRoleByPermission[permission]);
}
