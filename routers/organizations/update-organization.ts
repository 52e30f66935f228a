import type { OrganizationView } from '../../contracts/organizations.js';
import type { Actor } from '../../server/auth/actor.js';
import { Organization } from '../../server/persistence/entities/organization.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import { organizationView } from '../../server/auth/create-organization.js';

/** Renames the organization (its slug stays: it may be in bookmarks and scripts). */
export async function renameOrganization(input: {
  em: EntityManager;
  actor: Actor;
  organizationId: string;
  name: string;
}): Promise<OrganizationView> {
  const organization = await input.em.findOneOrFail(Organization, { id: input.organizationId });
  organization.name = input.name;
  await input.em.flush();
  return organizationView(organization, input.actor.role);
}
