import { z } from 'zod';
import { deletedSchema } from './deleted.js';
import { isoTime } from './times.js';
import { roleSchema } from './system.js';

export const organizationSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    createdAt: isoTime(),
    role: roleSchema.describe('Your role in it.'),
  })
  .meta({ id: 'Organization' });

export const organizationListSchema = z
  .object({ organizations: z.array(organizationSchema) })
  .meta({ id: 'OrganizationList' });

export const organizationParams = z.strictObject({
  organizationId: z.string().min(1).max(36).describe('Organization id.'),
});

export const memberParams = organizationParams.extend({
  userId: z.string().min(1).max(36).describe('User id of the member.'),
});

const organizationName = z.string().trim().min(1).max(200).describe('Organization name, trimmed.');

export const createOrganizationInputSchema = z.strictObject({ name: organizationName });

export const updateOrganizationInputSchema = organizationParams.extend({ name: organizationName });

export const memberSchema = z
  .object({
    userId: z.string(),
    email: z.string(),
    name: z.string(),
    role: roleSchema,
    joinedAt: isoTime(),
  })
  .meta({ id: 'Member' });

export const memberListSchema = z.object({ members: z.array(memberSchema) }).meta({ id: 'MemberList' });

export const changeMemberRoleInputSchema = memberParams.extend({
  role: roleSchema.describe('The new role; no higher than yours.'),
});

export const removedMemberSchema = deletedSchema
  .extend({ removed: z.number().int() })
  .describe('`id`: the user id of the member removed.');

export type OrganizationView = z.infer<typeof organizationSchema>;
export type MemberView = z.infer<typeof memberSchema>;
