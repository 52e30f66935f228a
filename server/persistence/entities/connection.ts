import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Organization } from './organization.js';

/**
 * A saved connection to a Redis store, owned by an organization. The URL is
 * kept only encrypted (`urlSealed`, see server/secrets/url-cipher.ts).
 */
export const Connection = defineEntity({
  name: 'Connection',
  tableName: 'connection',
  uniques: [{ properties: ['organization', 'name'], name: 'connection_organization_name_unique' }],
  properties: {
    id: p.string().primary().length(36),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    name: p.string().length(100),
    urlSealed: p.text(),
    environment: p.string().length(20),
    prefixes: p.json<string[]>(),
    isDefault: p.boolean().default(false),
    tlsEnabled: p.boolean().default(false),
    tlsAllowSelfSigned: p.boolean().default(false),
    cluster: p.boolean().default(false),
    /** `none`, `confirm`, `admin` or `read-only` (contracts/protection.ts); migration 0010. */
    protection: p.string().length(20).default('none'),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

export type ConnectionRow = InferEntity<typeof Connection>;

const savedIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Saved ids are UUIDs (randomUUID). Anything else cannot be a row, and must
 * not reach the database either: Postgres refuses a NUL byte in text with an
 * error, which would turn an odd `:id` into a 500 instead of a 404.
 */
export const isSavedConnectionId = (id: string): boolean => savedIdPattern.test(id);
