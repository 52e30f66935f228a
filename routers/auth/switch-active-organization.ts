import type { Identity } from '../../server/auth/identity.js';
import type { SecretHasher } from '../../server/auth/secret-hash.js';
import { Membership } from '../../server/persistence/entities/membership.js';
import { Session } from '../../server/persistence/entities/session.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import { AppError } from '../../contracts/app-error.js';

/** Stores the organization a session acts in when no x-organization-id header says otherwise. */
export async function switchActiveOrganization(input: {
  em: EntityManager;
  hash: SecretHasher;
  identity: Identity | null;
  organizationId: string;
}): Promise<{ success: true }> {
  const { em, identity, organizationId } = input;
  if (identity?.kind !== 'user') throw new AppError('FORBIDDEN', 'Only a signed-in session has an active organization');
  if (!(await em.count(Membership, { organizationId, userId: identity.user.id }))) {
    throw new AppError('FORBIDDEN', `You are not a member of organization ${organizationId}`, { organizationId });
  }
  await em.nativeUpdate(Session, { idHash: input.hash(identity.session.id) }, { activeOrganizationId: organizationId });
  return { success: true };
}
