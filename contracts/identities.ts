import { z } from 'zod';
import { deletedSchema } from './deleted.js';
import { isoTime } from './times.js';

export const oauthProviderIdSchema = z.enum(['oidc', 'github', 'google']);

export const linkedIdentitySchema = z.object({
  provider: oauthProviderIdSchema,
  email: z.string().nullable().describe('The email the provider reported when last used; for the record only.'),
  createdAt: isoTime().describe('ISO 8601: when it was linked (or created the account).'),
  lastSignInAt: isoTime().nullable().describe('ISO 8601; null when never used to sign in since linked.'),
});

export const linkedIdentitiesSchema = z
  .object({
    passwordSet: z.boolean().describe('Whether you can also sign in with email and password.'),
    identities: z
      .array(linkedIdentitySchema)
      .describe('Your identity provider accounts; link one with `GET /api/auth/link/{provider}`.'),
  })
  .meta({ id: 'LinkedIdentities' });

export const identityProviderParams = z.strictObject({
  provider: oauthProviderIdSchema.describe('The provider whose account to unlink from you.'),
});

export const unlinkedIdentitySchema = deletedSchema.extend({
  removed: z
    .number()
    .int()
    .describe('Accounts of that provider unlinked (1; more only for links made before one per provider).'),
});

export type LinkedIdentities = z.infer<typeof linkedIdentitiesSchema>;
export type UnlinkedIdentity = z.infer<typeof unlinkedIdentitySchema>;
