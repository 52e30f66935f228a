import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Someone who signs in with email and password; the password is stored as an scrypt hash only. */
export const User = defineEntity({
  name: 'User',
  tableName: 'app_user',
  properties: {
    id: p.string().primary().length(36),
    email: p.string().length(320).unique(),
    name: p.string().length(200),
    passwordHash: p.string().length(300),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastSignInAt: p.datetime().nullable(),
  },
});

export type UserRecord = InferEntity<typeof User>;
