import { randomBytes, randomUUID } from 'node:crypto';
import type { OrganizationView } from '../../contracts/organizations.js';
import { Membership } from '../persistence/entities/membership.js';
import { Organization, type OrganizationRecord } from '../persistence/entities/organization.js';
import type { EntityManager } from '../persistence/orm.js';
import type { Actor } from './actor.js';
import { AppError } from '../../contracts/app-error.js';

function slugFor(name: string): string {
  const base =
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'org';
  return `${base}-${randomBytes(3).toString('hex')}`;
}

export function organizationView(organization: OrganizationRecord, role: OrganizationView['role']): OrganizationView {
  return {
    id: organization.id,
    name: organization.name,
    slug: organization.slug,
    createdAt: organization.createdAt.toISOString(),
    role,
  };
}

/** A new organization with `ownerUserId` as its owner; persisted with the caller's next flush. */
export function addOrganization(em: EntityManager, input: { name: string; ownerUserId: string }): OrganizationRecord {
  const now = new Date();
  const organization = em.create(Organization, {
    id: randomUUID(),
    name: input.name,
    slug: slugFor(input.name),
    isLocal: false,
    createdAt: now,
  });
  em.create(Membership, {
    id: randomUUID(),
    organizationId: organization.id,
    userId: input.ownerUserId,
    role: 'owner',
    createdAt: now,
  });
  return organization;
}

/** A signed-in user creates an organization and owns it; tokens act inside one organization only. */
export async function createOrganization(input: {
  em: EntityManager;
  name: string;
  actor: Actor;
}): Promise<OrganizationView> {
  if (input.actor.kind !== 'user' || !input.actor.userId)
    throw new AppError('FORBIDDEN', 'Organizations are created by signed-in users, not with a token');
  const organization = addOrganization(input.em, { name: input.name, ownerUserId: input.actor.userId });
  await input.em.flush();
  return organizationView(organization, 'owner');
}
