import type { OrganizationView } from '../../contracts/organizations.js';
import type { Actor } from '../../server/auth/actor.js';
import { Membership } from '../../server/persistence/entities/membership.js';
import { Organization } from '../../server/persistence/entities/organization.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import { organizationView } from '../../server/auth/create-organization.js';

/** A user's organizations with their role in each; a token or authless caller sees its one organization. */
export async function listOrganizations(input: {
  em: EntityManager;
  actor: Actor;
}): Promise<{ organizations: OrganizationView[] }> {
  const { em, actor } = input;
  const roles =
    actor.kind === 'user' && actor.userId
      ? new Map(
          (await em.find(Membership, { userId: actor.userId })).map((membership) => [
            membership.organizationId,
            membership.role,
          ]),
        )
      : new Map([[actor.organizationId, actor.role]]);
  const organizations = await em.find(
    Organization,
    { id: { $in: [...roles.keys()] } },
    { orderBy: { name: 'asc', id: 'asc' } },
  );
  return {
    organizations: organizations.map((organization) => organizationView(organization, roles.get(organization.id)!)),
  };
}
