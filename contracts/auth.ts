import { z } from 'zod';
import { roleSchema } from './system.js';

export const minPasswordLength = 10;

const email = z.email().max(320).describe('Email address; compared case-insensitively.');

export const signUpInputSchema = z.object({
  email,
  password: z.string().min(minPasswordLength, `must be at least ${minPasswordLength} characters`).max(1000),
  name: z.string().trim().min(1).max(200),
});

export const signInInputSchema = z.object({ email, password: z.string().min(1).max(1000) });

export const userSchema = z.object({
  id: z.string(),
  email: z.string().nullable().describe('null only for the synthetic authless owner.'),
  name: z.string(),
  createdAt: z.string().describe('ISO 8601.'),
  lastSignInAt: z.string().nullable().describe('ISO 8601; updated at sign-in and by GET /api/app/config.'),
});

export const sessionInfoSchema = z
  .object({
    expiresAt: z.string().nullable().describe('ISO 8601; sliding: extended when used in the second half of its 30 days. null in authless mode.'),
    activeOrganizationId: z.string().nullable(),
  })
  .describe('The session; its id travels only in the HttpOnly cookie.');

export const signedInSchema = z.object({ user: userSchema, session: sessionInfoSchema });

export const currentSessionSchema = signedInSchema.nullable().describe('`null` when not signed in.');

export const successSchema = z.object({ success: z.literal(true) });

export const setActiveOrganizationInputSchema = z.object({ organizationId: z.string().min(1).max(36) });

export const tokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: roleSchema.describe('The most the token may do; never above its creator’s current role.'),
  organizationId: z.string(),
  createdByUserId: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable().describe('Updated at most once a minute.'),
  createdAt: z.string(),
});

export const createTokenInputSchema = z.object({
  name: z.string().trim().min(1).max(200),
  role: roleSchema.optional().describe('Defaults to your role; cannot exceed it.'),
  expiresAt: z.iso.datetime({ offset: true }).optional().describe('ISO 8601, in the future; omit for no expiry.'),
});

export const createdTokenSchema = tokenSchema.extend({
  token: z.string().describe('Send as `Authorization: Bearer <token>`. Shown once: only its hash is stored.'),
});

export const tokenListSchema = z.object({ tokens: z.array(tokenSchema) });

export const tokenIdParams = z.object({ id: z.string().min(1).max(36).describe('Token id.') });

export type SignUpInput = z.infer<typeof signUpInputSchema>;
export type SignInInput = z.infer<typeof signInInputSchema>;
export type UserView = z.infer<typeof userSchema>;
export type SessionInfo = z.infer<typeof sessionInfoSchema>;
export type CurrentSession = z.infer<typeof currentSessionSchema>;
export type SignedIn = z.infer<typeof signedInSchema>;
export type TokenView = z.infer<typeof tokenSchema>;
export type CreatedToken = z.infer<typeof createdTokenSchema>;
export type CreateTokenInput = z.infer<typeof createTokenInputSchema>;
