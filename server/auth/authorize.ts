import { roleAllows, type Permission } from '../../contracts/permissions.js';
import { AppError } from '../../contracts/app-error.js';
import type { Actor } from './actor.js';

/**
 * Throws 403 unless the actor's role allows the permission a procedure
 * declares, and, on a session-only procedure (`sessionOnly`: tokens, members'
 * accounts…), unless a person signed in makes the call: a leaked API token
 * must not mint tokens or act on accounts.
 */
export function authorize(actor: Actor, permission: Permission | undefined, procedurePath: string, sessionOnly = false): void {
  if (sessionOnly && actor.kind === 'token') throw new AppError('FORBIDDEN', 'Only a signed-in person may do this, not an API token', { permission });
  // A procedure without a declared permission is a programming error; fail closed.
  if (!permission) throw new Error(`procedure ${procedurePath} declares no meta.permission`);
  if (!roleAllows(actor.role, permission)) {
    throw new AppError('FORBIDDEN', `Your role (${actor.role}) does not allow ${permission}`, { permission });
  }
}
