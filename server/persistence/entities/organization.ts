import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Everything Bullpen stores belongs to an organization; authless mode uses one local organization. */
export const Organization = defineEntity({
  name: 'Organization',
  tableName: 'organization',
  properties: {
    id: p.string().primary().length(36),
    name: p.string().length(200),
    slug: p.string().length(200).unique(),
    isLocal: p.boolean().default(false),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export type OrganizationRecord = InferEntity<typeof Organization>;
