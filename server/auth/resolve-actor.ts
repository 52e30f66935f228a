import type { Context } from '../trpc/context.js';
import type { Actor } from './actor.js';

/**
 * Who the request acts as, or null when nobody is signed in. Authless mode:
 * the owner of the local organization. Authenticated mode: the session cookie
 * or bearer token (the authentication issue fills this in).
 */
export async function resolveActor(ctx: Context): Promise<Actor | null> {
  if (ctx.services.config.authless) {
    return {
      kind: 'authless',
      userId: null,
      tokenId: null,
      organizationId: ctx.services.persistence.localOrganizationId(),
      role: 'owner',
    };
  }
  return null;
}
