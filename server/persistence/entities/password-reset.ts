import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A one-time password reset link; only its token's keyed hash is stored. */
export const PasswordReset = defineEntity({
  name: 'PasswordReset',
  tableName: 'password_reset',
  properties: {
    id: p.string().primary().length(36),
    userId: p.string().length(36),
    tokenHash: p.string().length(64).unique(),
    /** null: created on the server itself (`npm run admin -- reset-password`). */
    createdByUserId: p.string().length(36).nullable(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export type PasswordResetRecord = InferEntity<typeof PasswordReset>;
