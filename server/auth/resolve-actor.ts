import { roleOrder } from '../../contracts/permissions.js';
import type { Role } from '../../contracts/system.js';
import { AppError } from '../../contracts/app-error.js';
import { Membership, type MembershipRecord } from '../persistence/entities/membership.js';
import type { Context } from '../trpc/context.js';
import type { Actor } from './actor.js';

export const organizationHeader = 'x-organization-id';

const lowerRole = (a: Role, b: Role): Role => (roleOrder.indexOf(a) <= roleOrder.indexOf(b) ? a : b);

const notMember = (organizationId: string) =>
  new AppError('FORBIDDEN', `You are not a member of organization ${organizationId}`, { organizationId });

/** The organization a request asks to act in: the route's own, else the `x-organization-id` header. */
function requestedOrganization(ctx: Context, routeOrganizationId: string | undefined): string | undefined {
  if (routeOrganizationId) return routeOrganizationId;
  const header = ctx.req?.headers[organizationHeader];
  return typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined;
}

/**
 * A user acts in the requested organization, else the session's active one,
 * else the one they joined first. Asking for an organization they are not a
 * member of is 403, as is having no membership at all.
 */
function chooseMembership(
  memberships: MembershipRecord[],
  requested: string | undefined,
  sessionOrganizationId: string | null,
) {
  if (requested) {
    const match = memberships.find((membership) => membership.organizationId === requested);
    if (!match) throw notMember(requested);
    return match;
  }
  const chosen =
    memberships.find((membership) => membership.organizationId === sessionOrganizationId) ?? memberships[0];
  if (!chosen) throw new AppError('FORBIDDEN', 'You are not a member of any organization');
  return chosen;
}

/**
 * Who the request acts as, in which organization, with which role; null when
 * nobody is signed in (or the credentials are not valid). Authless mode: the
 * owner of the local organization. A token acts in its own organization with
 * its role, never above its creator's current role there, and its scope.
 * Over the MCP endpoint the actor is an `agent` (token or authless).
 */
export async function resolveActor(ctx: Context, routeOrganizationId?: string): Promise<Actor | null> {
  const identity = await ctx.identify();
  if (!identity) return null;
  const requested = requestedOrganization(ctx, routeOrganizationId);
  // Calls through the MCP endpoint act as agents: audited apart from the same token over REST.
  const viaMcp = ctx.transport === 'mcp';
  if (identity.kind === 'authless' || identity.kind === 'system') {
    const organizationId = ctx.services.persistence.localOrganizationId();
    if (requested && requested !== organizationId) throw notMember(requested);
    const kind = identity.kind === 'system' ? 'internal' : viaMcp ? 'agent' : 'authless';
    return { kind, userId: null, tokenId: null, organizationId, role: 'owner' };
  }
  const em = ctx.services.persistence.fork();
  if (identity.kind === 'token') {
    const { token } = identity;
    if (requested && requested !== token.organizationId) throw notMember(requested);
    const creator = await em.findOne(Membership, {
      organizationId: token.organizationId,
      userId: token.createdByUserId,
    });
    // The creator left the organization: the token acts for nobody.
    if (!creator) return null;
    const role = lowerRole(token.role, creator.role);
    return {
      kind: viaMcp ? 'agent' : 'token',
      userId: token.createdByUserId,
      tokenId: token.id,
      organizationId: token.organizationId,
      role,
      tokenScope: token.scope,
    };
  }
  const [userId, preferred] =
    identity.kind === 'user'
      ? [identity.user.id, identity.session.activeOrganizationId]
      : [identity.userId, identity.organizationId];
  const memberships = await em.find(Membership, { userId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  // An in-process caller that names an organization must be a member of it, like a route's own.
  const membership = chooseMembership(
    memberships,
    requested ?? (identity.kind === 'user' ? undefined : (preferred ?? undefined)),
    preferred,
  );
  return { kind: 'user', userId, tokenId: null, organizationId: membership.organizationId, role: membership.role };
}
