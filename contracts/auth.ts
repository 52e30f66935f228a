import { z } from 'zod';
import { isoTime } from './times.js';
import { roleSchema } from './system.js';
import { strictBoolean } from './strict-boolean.js';

export const minPasswordLength = 10;

const email = z.email().max(320).describe('Email address; compared case-insensitively.');

const newPassword = z
  .string()
  .min(minPasswordLength, `must be at least ${minPasswordLength} characters`)
  .max(1000)
  .describe(`The new password: ${minPasswordLength} to 1,000 characters.`);

export const signUpInputSchema = z.strictObject({
  email,
  password: newPassword,
  name: z.string().trim().min(1).max(200).describe('Display name, trimmed.'),
  invitationToken: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('From an invitation: joins its organization with its role (needed when SERVICE_SIGNUP=invite).'),
  setupToken: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'First account on an instance listening beyond loopback: the one-time token printed in the log at first start.',
    ),
});

export const changePasswordInputSchema = z.strictObject({
  currentPassword: z.string().min(1).max(1000).describe('The password in use now.'),
  newPassword,
  revokeTokens: strictBoolean()
    .optional()
    .describe('Also revoke every API token you created, in every organization (default false).'),
});

export const changedPasswordSchema = z.object({
  success: z.literal(true),
  endedSessions: z.number().int().describe('Your other sessions, now ended.'),
  revokedTokens: z.number().int().describe('Your API tokens, now revoked (0 unless `revokeTokens`).'),
});

export const resetPasswordInputSchema = z.strictObject({
  token: z.string().min(1).max(200).describe('From the reset link.'),
  newPassword,
});

export const passwordResetLinkSchema = z.object({
  url: z.string().describe('Shown once: only the hash of its token is stored.'),
  token: z.string().describe('The token in the link, for POST /api/auth/reset-password.'),
  expiresAt: isoTime().describe('ISO 8601; one hour after creation.'),
});

export const signInInputSchema = z.strictObject({
  email,
  password: z.string().min(1).max(1000).describe("The account's password."),
});

export const userSchema = z
  .object({
    id: z.string(),
    email: z.string().nullable().describe('null only for the synthetic authless owner.'),
    name: z.string(),
    createdAt: isoTime().describe('ISO 8601.'),
    lastSignInAt: isoTime().nullable().describe('ISO 8601; updated at sign-in and by GET /api/app/config.'),
  })
  .meta({ id: 'User' });

export const sessionInfoSchema = z
  .object({
    expiresAt: isoTime()
      .nullable()
      .describe('ISO 8601; sliding: extended when used in the second half of its 30 days. null in authless mode.'),
    activeOrganizationId: z.string().nullable(),
  })
  .describe('The session; its id travels only in the HttpOnly cookie.');

export const signedInSchema = z.object({ user: userSchema, session: sessionInfoSchema });

export const currentSessionSchema = signedInSchema.nullable().describe('`null` when not signed in.');

export const successSchema = z.object({ success: z.literal(true) });

export const setActiveOrganizationInputSchema = z.strictObject({
  organizationId: z
    .string()
    .min(1)
    .max(36)
    .describe('An organization you are a member of; the session acts in it from now on.'),
});

export const tokenScopeSchema = z
  .enum(['full', 'read'])
  .describe(
    '`read`: the token may only read (every change is refused with 403, and the MCP endpoint lists only read tools to it); `full`: whatever its role allows.',
  );

export const tokenSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    role: roleSchema.describe('The most the token may do; never above its creator’s current role.'),
    scope: tokenScopeSchema,
    organizationId: z.string(),
    createdByUserId: z.string(),
    expiresAt: isoTime().nullable(),
    lastUsedAt: isoTime().nullable().describe('Updated at most once a minute.'),
    createdAt: isoTime(),
  })
  .meta({ id: 'ApiToken' });

export const createTokenInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).describe('A label to recognize the token by, trimmed.'),
  role: roleSchema.optional().describe('Defaults to your role; cannot exceed it.'),
  scope: tokenScopeSchema
    .optional()
    .describe('Default `full`; `read` makes a read-only token (for agents that should only look).'),
  expiresAt: z.iso.datetime({ offset: true }).optional().describe('ISO 8601, in the future; omit for no expiry.'),
});

export const createdTokenSchema = tokenSchema
  .extend({
    token: z.string().describe('Send as `Authorization: Bearer <token>`. Shown once: only its hash is stored.'),
  })
  .meta({ id: 'CreatedApiToken' });

export const tokenListSchema = z.object({ tokens: z.array(tokenSchema) }).meta({ id: 'ApiTokenList' });

export const tokenIdParams = z.strictObject({ id: z.string().min(1).max(36).describe('Token id.') });

export type SignUpInput = z.infer<typeof signUpInputSchema>;
export type PasswordResetLink = z.infer<typeof passwordResetLinkSchema>;
export type SignInInput = z.infer<typeof signInInputSchema>;
export type UserView = z.infer<typeof userSchema>;
export type SessionInfo = z.infer<typeof sessionInfoSchema>;
export type CurrentSession = z.infer<typeof currentSessionSchema>;
export type SignedIn = z.infer<typeof signedInSchema>;
export type TokenView = z.infer<typeof tokenSchema>;
export type TokenScope = z.infer<typeof tokenScopeSchema>;
export type CreatedToken = z.infer<typeof createdTokenSchema>;
export type CreateTokenInput = z.infer<typeof createTokenInputSchema>;

export const oauthProvidersSchema = z.object({
  providers: z
    .array(
      z.object({
        id: z.enum(['oidc', 'github', 'google']).describe('The `{provider}` of `/api/auth/sign-in/{provider}`.'),
        name: z.string().describe('What to show on the button (OIDC_DISPLAY_NAME for the generic provider).'),
        type: z.enum(['oidc', 'oauth2']),
      }),
    )
    .describe('Configured providers only; empty when none is.'),
  emailPassword: z.literal(true).describe('Email and password sign-in is always available.'),
});
export type OAuthProvidersView = z.infer<typeof oauthProvidersSchema>;
