import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { roleOrder } from '../../../contracts/permissions.js';

/** A user's role in one organization. */
export const Membership = defineEntity({
  name: 'Membership',
  tableName: 'membership',
  uniques: [{ properties: ['organizationId', 'userId'], name: 'membership_organization_user_unique' }],
  properties: {
    id: p.string().primary().length(36),
    organizationId: p.string().length(36),
    userId: p.string().length(36).index(),
    role: p.enum(roleOrder).length(20),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export type MembershipRecord = InferEntity<typeof Membership>;
