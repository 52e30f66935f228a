import { z } from 'zod';
import { databaseText } from './database-text.js';

export const auditOutcomeSchema = z.enum(['success', 'denied', 'failure']);

export const auditEventSchema = z.object({
  id: z.string(),
  at: z.string().describe('When the action finished (ISO 8601).'),
  organizationId: z.string(),
  actor: z.object({
    kind: z.enum(['authless', 'user', 'token']),
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
});

export const auditQuerySchema = z.object({
  connectionId: databaseText().min(1).max(200).optional(),
  action: databaseText().min(1).max(100).optional().describe('Exact action, e.g. `queues.purge`.'),
  from: z.iso.datetime({ offset: true }).optional().describe('Earliest event time (inclusive, ISO 8601).'),
  to: z.iso.datetime({ offset: true }).optional().describe('Latest event time (exclusive, ISO 8601).'),
  cursor: z.string().max(200).optional().describe('`nextCursor` of the previous page.'),
  limit: z.number().int().min(1).max(100).default(50).describe('Events per page, at most 100.'),
});

export const auditPageSchema = z.object({
  events: z.array(auditEventSchema).describe('Newest first.'),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next (older) page; null at the end.'),
});

export type AuditOutcome = z.infer<typeof auditOutcomeSchema>;
export type AuditEventView = z.infer<typeof auditEventSchema>;
export type AuditQuery = z.infer<typeof auditQuerySchema>;
export type AuditPage = z.infer<typeof auditPageSchema>;
