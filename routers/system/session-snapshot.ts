import type { SessionSnapshot } from '../../contracts/system.js';
import { authlessUser, type Actor } from '../../server/auth/actor.js';
import { Membership } from '../../server/persistence/entities/membership.js';
import { Organization } from '../../server/persistence/entities/organization.js';
import { User } from '../../server/persistence/entities/user.js';
import { ensureLocalOrganization } from '../../server/persistence/local-organization.js';
import type { EntityManager } from '../../server/persistence/orm.js';

/** Authless mode: every caller is the owner of the local organization. */
export async function authlessSessionSnapshot(em: EntityManager): Promise<SessionSnapshot> {
  const organization = await ensureLocalOrganization(em);
  return {
    authenticated: true,
    authless: true,
    user: { ...authlessUser },
    activeOrganization: { id: organization.id, name: organization.name, slug: organization.slug },
    role: 'owner',
    memberships: [{ organizationId: organization.id, name: organization.name, role: 'owner' }],
  };
}

export const signedOutSnapshot: SessionSnapshot = {
  authenticated: false,
  authless: false,
  user: null,
  activeOrganization: null,
  role: null,
  memberships: [],
};

/** A user's (or a token's) view: the organization acted in, the role there, and every membership. */
async function signedInSnapshot(em: EntityManager, actor: Actor): Promise<SessionSnapshot> {
  const user = actor.userId ? await em.findOne(User, { id: actor.userId }) : null;
  const memberships =
    actor.kind === 'user' && actor.userId
      ? await em.find(Membership, { userId: actor.userId }, { orderBy: { createdAt: 'asc', id: 'asc' } })
      : [{ organizationId: actor.organizationId, role: actor.role }];
  const organizations = new Map(
    (await em.find(Organization, { id: { $in: memberships.map((membership) => membership.organizationId) } })).map(
      (organization) => [organization.id, organization],
    ),
  );
  const active = organizations.get(actor.organizationId);
  return {
    authenticated: true,
    authless: false,
    user: user ? { id: user.id, name: user.name, email: user.email } : null,
    activeOrganization: active ? { id: active.id, name: active.name, slug: active.slug } : null,
    role: actor.role,
    memberships: memberships.map((membership) => ({
      organizationId: membership.organizationId,
      name: organizations.get(membership.organizationId)?.name ?? '',
      role: membership.role,
    })),
  };
}

export async function sessionSnapshot(input: { em: EntityManager; actor: Actor | null }): Promise<SessionSnapshot> {
  if (!input.actor) return signedOutSnapshot;
  if (input.actor.kind === 'authless') return authlessSessionSnapshot(input.em);
  return signedInSnapshot(input.em, input.actor);
}
