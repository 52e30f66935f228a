import { AppError } from '../../contracts/app-error.js';
import { Membership } from '../../server/persistence/entities/membership.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import { actsWithToken, type Actor } from '../../server/auth/actor.js';

/**
 * Whether the actor is the instance owner: an owner of the local (instance)
 * organization, now, whichever organization the request acts in; a token
 * counts when it acts in the local organization with the owner role (its
 * role is already capped by its creator's). In-process tooling acting as the
 * system is the instance owner.
 */
export async function isInstanceOwner(em: EntityManager, localOrganizationId: string, actor: Actor): Promise<boolean> {
  if (actor.kind === 'internal') return true;
  if (actsWithToken(actor)) return actor.organizationId === localOrganizationId && actor.role === 'owner';
  if (actor.kind !== 'user' || !actor.userId) return false;
  return (await em.count(Membership, { organizationId: localOrganizationId, userId: actor.userId, role: 'owner' })) > 0;
}

/**
 * What changes an account itself (its password, sessions, tokens, linked
 * identities) is done by that user, or by the instance owner, or by
 * `npm run admin` on the server: never by the admin or owner of some
 * organization the user also belongs to, which anyone may create.
 */
export async function requireActsOnAccount(
  em: EntityManager,
  localOrganizationId: string,
  actor: Actor,
  userId: string,
): Promise<void> {
  if (actor.userId === userId && actor.kind === 'user') return;
  if (await isInstanceOwner(em, localOrganizationId, actor)) return;
  throw new AppError(
    'FORBIDDEN',
    "Only the user themselves or the instance owner (an owner of the instance's own organization) may change an account; organization owners and admins manage memberships only",
  );
}
