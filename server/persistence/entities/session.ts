import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A lucia session. `idHash` is the SHA-256 of the session id the cookie
 * carries: the id itself is never stored, so a leaked database holds no live session.
 */
export const Session = defineEntity({
  name: 'Session',
  tableName: 'auth_session',
  properties: {
    idHash: p.string().primary().length(64),
    userId: p.string().length(36).index(),
    expiresAt: p.datetime(),
    activeOrganizationId: p.string().length(36).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export type SessionRecord = InferEntity<typeof Session>;
