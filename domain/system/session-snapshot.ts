import type { SessionSnapshot } from '../../contracts/system.js';
import { ensureLocalOrganization } from '../../server/persistence/local-organization.js';
import type { EntityManager } from '../../server/persistence/orm.js';

/** Authless mode: every caller is the owner of the local organization. */
export async function authlessSessionSnapshot(em: EntityManager): Promise<SessionSnapshot> {
  const organization = await ensureLocalOrganization(em);
  return {
    authenticated: true,
    authless: true,
    user: { id: 'authless', name: 'Local owner', email: null },
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
