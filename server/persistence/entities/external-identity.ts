import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A user's account at an identity provider: `(provider, subject)` is unique,
 * so one provider account always signs in as the same user.
 */
export const ExternalIdentity = defineEntity({
  name: 'ExternalIdentity',
  tableName: 'external_identity',
  uniques: [{ properties: ['provider', 'subject'], name: 'external_identity_provider_subject_unique' }],
  properties: {
    id: p.string().primary().length(36),
    userId: p.string().length(36).index(),
    provider: p.string().length(20),
    subject: p.string().length(255),
    /** The email the provider reported at the last sign-in (for the record; linking uses the user's). */
    email: p.string().length(320).nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastSignInAt: p.datetime().nullable(),
  },
});

export type ExternalIdentityRecord = InferEntity<typeof ExternalIdentity>;
