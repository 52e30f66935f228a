import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { roleOrder } from '../../../contracts/permissions.js';

/** `read`: the token may only read (see server/auth/authorize.ts). */
export const tokenScopes = ['full', 'read'] as const;

/** An API token: only its hash is stored; the token itself is shown once, at creation. */
export const ApiToken = defineEntity({
  name: 'ApiToken',
  tableName: 'api_token',
  properties: {
    id: p.string().primary().length(36),
    organizationId: p.string().length(36).index(),
    createdByUserId: p.string().length(36),
    name: p.string().length(200),
    role: p.enum(roleOrder).length(20),
    scope: p.enum(tokenScopes).length(20).default('full'),
    tokenHash: p.string().length(64).unique(),
    expiresAt: p.datetime().nullable(),
    lastUsedAt: p.datetime().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export type ApiTokenRecord = InferEntity<typeof ApiToken>;
