import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { roleOrder } from '../../../contracts/permissions.js';

/** An invitation to join an organization; only its token's keyed hash is stored. Revoking deletes it. */
export const Invitation = defineEntity({
  name: 'Invitation',
  tableName: 'invitation',
  properties: {
    id: p.string().primary().length(36),
    organizationId: p.string().length(36).index(),
    /** Lowercased: compared case-insensitively. */
    email: p.string().length(320),
    role: p.enum(roleOrder).length(20),
    tokenHash: p.string().length(64).unique(),
    invitedByUserId: p.string().length(36),
    expiresAt: p.datetime(),
    acceptedAt: p.datetime().nullable(),
    acceptedByUserId: p.string().length(36).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export type InvitationRecord = InferEntity<typeof Invitation>;
