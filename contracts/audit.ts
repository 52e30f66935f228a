import { z } from 'zod';
import { isoTime } from './times.js';
import { databaseText } from './database-text.js';
import { minimumRoleByPermission } from './permissions.js';

/**
 * Account events no permission governs (anyone may sign up or accept an invitation sent to them):
 * recorded by routers/auth/record-account-event.ts and invitation acceptance.
 */
export const accountAuditActions = [
  'auth.sign-up',
  'auth.change-password',
  'auth.reset-password',
  'invitations.accept',
] as const;

/** The actions events are recorded under (the permission names, and the account events), and their families (`queues.`). */
export const auditActions: string[] = [...Object.keys(minimumRoleByPermission), ...accountAuditActions];
export const auditActionFamilies = [
  ...new Set(auditActions.map((action) => `${action.slice(0, action.indexOf('.'))}.`)),
];

const isActionFilter = (value: string) => auditActions.includes(value) || auditActionFamilies.includes(value);

/** A day (`2026-11-23`, midnight UTC) or an ISO 8601 datetime with offset. */
const auditTime = z.union([z.iso.datetime({ offset: true }), z.iso.date()]);

export const auditOutcomeSchema = z.enum(['success', 'denied', 'failure']);

export const auditActorKindSchema = z
  .enum(['authless', 'user', 'token', 'agent', 'internal', 'anonymous'])
  .describe(
    '`token`: an API token over REST or tRPC; `agent`: a call through the MCP endpoint (`/api/mcp`), with the token in `tokenId` (null in authless mode); `internal`: in-process tooling acting as the instance owner; `anonymous`: a failed sign-in with an identity provider.',
  );

export const auditEventSchema = z
  .object({
    id: z.string(),
    at: isoTime().describe('When the action finished (ISO 8601).'),
    organizationId: z.string(),
    actor: z.object({
      kind: auditActorKindSchema,
      userId: z.string().nullable(),
      tokenId: z.string().nullable(),
    }),
    action: z.string().describe('The permission the procedure performs, e.g. `queues.purge`.'),
    procedure: z.string().describe('The procedure path, e.g. `queues.purge`.'),
    connectionId: z.string().nullable(),
    queueName: z.string().nullable(),
    parameters: z.unknown().describe('The call input, secrets redacted and large values cut.'),
    outcome: auditOutcomeSchema.describe('`denied`: 401/403; `failure`: any other error.'),
    errorCode: z.string().nullable(),
    counts: z.record(z.string(), z.unknown()).nullable().describe('Figures the result reported, e.g. `totalRemoved`.'),
    reason: z
      .string()
      .nullable()
      .describe(
        "Why, as the caller said: the `Bullpen-Reason` header, or an MCP tool's `reason` argument (at most 1,000 characters are kept); null when none was given.",
      ),
  })
  .meta({ id: 'AuditEvent' });

export const auditQuerySchema = z.strictObject({
  connectionId: databaseText().min(1).max(200).optional().describe('Only events on this connection (its id).'),
  action: databaseText()
    .min(1)
    .max(100)
    .refine(isActionFilter, {
      message: `unknown action; valid: ${[...auditActions, ...auditActionFamilies].join(', ')}`,
    })
    .optional()
    .describe(
      `An action, e.g. \`queues.purge\`, or a family ending in a dot, e.g. \`queues.\`. Actions: ${auditActions.join(', ')}.`,
    ),
  from: auditTime
    .optional()
    .describe('Earliest event time (inclusive): a date (midnight UTC) or an ISO 8601 datetime.'),
  to: auditTime.optional().describe('Latest event time (exclusive): a date (midnight UTC) or an ISO 8601 datetime.'),
  cursor: z.string().max(200).optional().describe('`nextCursor` of the previous page.'),
  limit: z.number().int().min(1).max(100).default(50).describe('Events per page, at most 100.'),
});

export const auditPageSchema = z
  .object({
    events: z.array(auditEventSchema).describe('Newest first.'),
    nextCursor: z.string().nullable().describe('Pass as `cursor` for the next (older) page; null at the end.'),
  })
  .meta({ id: 'AuditPage' });

export type AuditOutcome = z.infer<typeof auditOutcomeSchema>;
export type AuditActorKind = z.infer<typeof auditActorKindSchema>;
export type AuditEventView = z.infer<typeof auditEventSchema>;
export type AuditQuery = z.infer<typeof auditQuerySchema>;
export type AuditPage = z.infer<typeof auditPageSchema>;
