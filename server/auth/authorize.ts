import { roleAllows, type Permission } from '../../contracts/permissions.js';
import { AppError } from '../../contracts/app-error.js';
import { actsWithToken, type Actor } from './actor.js';

export interface AuthorizeOptions {
  /** Refuses API tokens: only a signed-in session may call it (`meta.sessionOnly`). */
  sessionOnly?: boolean;
  /** The call is a mutation: a read-scoped token may not make it. */
  mutation?: boolean;
}

/**
 * Throws 403 unless the actor's role allows the permission a procedure
 * declares; on a session-only procedure (`sessionOnly`: tokens, members'
 * accounts…), unless a person signed in makes the call: a leaked API token
 * must not mint tokens or act on accounts; on a mutation, when the actor is a
 * read-scoped token (`scope: read`), over REST, tRPC and MCP alike.
 */
export function authorize(
  actor: Actor,
  permission: Permission | undefined,
  procedurePath: string,
  options: AuthorizeOptions = {},
): void {
  if (options.sessionOnly && actsWithToken(actor))
    throw new AppError('FORBIDDEN', 'Only a signed-in person may do this, not an API token', { permission });
  // A procedure without a declared permission is a programming error; fail closed.
  if (!permission) throw new Error(`procedure ${procedurePath} declares no meta.permission`);
  if (options.mutation && actor.tokenScope === 'read') {
    throw new AppError(
      'FORBIDDEN',
      `This API token is read-only (scope: read): ${procedurePath} makes a change; use a token with scope full`,
      { permission, tokenScope: 'read' },
    );
  }
  if (!roleAllows(actor.role, permission)) {
    throw new AppError('FORBIDDEN', `Your role (${actor.role}) does not allow ${permission}`, { permission });
  }
}
