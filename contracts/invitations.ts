import { z } from 'zod';
import { isoTime } from './times.js';
import { organizationParams } from './organizations.js';
import { roleSchema } from './system.js';

export const maxInvitationHours = 24 * 30;

export const createInvitationInputSchema = organizationParams.extend({
  email: z
    .email()
    .max(320)
    .describe('Who may use it: sign-up or acceptance must come from this email (case-insensitive).'),
  role: roleSchema.describe('The role it grants; no higher than yours.'),
  expiresInHours: z.number().int().min(1).max(maxInvitationHours).optional().describe('Default 168 (7 days).'),
});

export const invitationSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  email: z.string(),
  role: roleSchema,
  expiresAt: isoTime().describe('ISO 8601.'),
  createdAt: isoTime(),
  invitedByUserId: z.string(),
  acceptedAt: isoTime().nullable(),
});

export const createdInvitationSchema = invitationSchema.extend({
  token: z
    .string()
    .describe('Shown once: only its hash is stored. Sign up with it as invitationToken, or accept it signed in.'),
  url: z.string().describe('The invitation link (its public preview, GET /api/invitations/{token}).'),
});

export const invitationListSchema = z.object({ invitations: z.array(invitationSchema) });

export const invitationIdParams = organizationParams.extend({
  invitationId: z.string().min(1).max(36).describe('Invitation id.'),
});

export const invitationTokenParams = z.strictObject({
  token: z.string().min(1).max(200).describe('The invitation token from the link.'),
});

export const invitationPreviewSchema = z.object({
  organization: z.object({ id: z.string(), name: z.string() }),
  role: roleSchema,
  email: z.string(),
  expiresAt: isoTime(),
});

export const acceptedInvitationSchema = z.object({ organizationId: z.string(), role: roleSchema });

export type CreateInvitationInput = z.infer<typeof createInvitationInputSchema>;
export type InvitationView = z.infer<typeof invitationSchema>;
export type CreatedInvitation = z.infer<typeof createdInvitationSchema>;
