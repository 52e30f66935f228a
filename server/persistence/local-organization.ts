import { randomUUID } from 'node:crypto';
import type { EntityManager } from './orm.js';
import { Organization, type OrganizationRecord } from './entities/organization.js';

/**
 * The organization that owns everything until real organizations exist, and
 * the one every authless request acts in. Created once, on first start.
 */
export async function ensureLocalOrganization(em: EntityManager): Promise<OrganizationRecord> {
  const existing = await em.findOne(Organization, { isLocal: true });
  if (existing) return existing;
  const organization = em.create(Organization, {
    id: randomUUID(),
    name: 'Local',
    slug: 'local',
    isLocal: true,
    createdAt: new Date(),
  });
  await em.persist(organization).flush();
  return organization;
}
