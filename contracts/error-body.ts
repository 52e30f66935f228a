import { z } from 'zod';
import type { ErrorCode } from './error-codes.js';
import { connectionProtectionSchema } from './protection.js';

const field = z.string().describe('The offending input field.');
const connectionId = z.string().describe('The connection concerned.');

/**
 * A store fault's 503: the connection, and for a bulk action, purge or move the fault cut short,
 * what it reached before (`done: false`; what was done stays done).
 */
const storeFault = z.object({
  connectionId,
  done: z
    .literal(false)
    .optional()
    .describe('Set when the fault cut a multi-step action short: the counts below were reached before it.'),
  succeeded: z.number().int().optional().describe('Bulk action or move cut short: jobs acted on before the fault.'),
  failed: z.number().int().optional().describe('Bulk action or move cut short: jobs refused before the fault.'),
  removedSoFar: z.number().int().optional().describe('Purge cut short: jobs removed before the fault.'),
  removedByStatus: z
    .record(z.string(), z.number().int())
    .optional()
    .describe('Purge cut short: jobs removed per status.'),
});

/**
 * The fields an error of a code may carry besides `message` and `code`
 * (AppError `details`); the API document lists them per response.
 */
export const errorDetailsByCode: Partial<Record<ErrorCode, z.ZodObject>> = {
  VALIDATION_FAILED: z.object({
    issues: z
      .array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() }))
      .optional()
      .describe('Input validation problems, one per offending field.'),
    field: field.optional(),
  }),
  CONFIRMATION_MISMATCH: z.object({ queueName: z.string().describe('The name `confirmName` must equal.') }),
  FORBIDDEN: z.object({
    permission: z.string().optional().describe('The permission the role lacks.'),
    organizationId: z.string().optional(),
    connectionId: connectionId.optional(),
    reason: z.literal('csrf').optional().describe('Set when a cookie-authenticated change came from another origin.'),
    tokenScope: z
      .literal('read')
      .optional()
      .describe('Set when a read-only API token (`scope: read`) asked for a change.'),
  }),
  REASON_REQUIRED: z.object({
    setting: z.literal('SERVICE_REQUIRE_REASON').describe('The variable that asks for reasons.'),
    requireReason: z.enum(['destructive', 'all-writes']).describe('Its value.'),
    permission: z.string().describe('The change that needs a reason (its permission).'),
  }),
  RESERVED_KEY: z.object({ key: z.string() }),
  CONNECTION_PROTECTED: z.object({
    connectionId,
    protection: connectionProtectionSchema,
    permission: z.string().describe('The refused action (its permission).'),
    confirmName: z
      .string()
      .optional()
      .describe(
        'With `confirm`: the `confirmName` the action needs (the queue name, or the connection name on connection-wide routes).',
      ),
  }),
  CONNECTION_TARGET_FORBIDDEN: z.object({ target: z.string().describe('The refused `host:port`.') }),
  WEBHOOK_TARGET_FORBIDDEN: z.object({ target: z.string().describe('The refused `host:port`.') }),
  SIGNUP_CLOSED: z.object({
    setting: z.literal('SERVICE_SIGNUP').describe('The variable that decides who may sign up.'),
  }),
  NOT_A_KEY_VALUE_STORE: z.object({ connectionId }),
  NOT_SUPPORTED_BY_BACKEND: z.object({
    connectionId,
    kind: z.enum(['postgres']).describe('The kind of store the route does not work on yet.'),
  }),
  BULLMQ_SCHEMA_MISSING: z.object({ connectionId: connectionId.optional(), schema: z.string() }),
  BULLMQ_SCHEMA_UNSUPPORTED: z.object({
    connectionId: connectionId.optional(),
    schema: z.string(),
    minimumClientVersion: z.number().int().describe('The BullMQ major version the schema asks for.'),
  }),
  MOVE_JOURNAL_MISSING: z.object({ connectionId, schema: z.string() }),
  UNSUPPORTED_QUEUE_NAME: z.object({ queueName: z.string().describe('The refused queue name.') }),
  SECRETS_MISSING: z.object({
    missingSecrets: z
      .array(z.object({ secret: z.string(), env: z.string().optional(), for: z.string() }))
      .describe('Each secret to give in `secrets`, by name.'),
  }),
  NOT_FOUND: z.object({
    connectionId: connectionId.optional(),
    queueName: z.string().optional(),
    schedulerId: z.string().optional(),
    key: z.string().optional(),
  }),
  CONFLICT: z.object({ field: field.optional(), schedulerId: z.string().optional() }),
  PURGE_CAP_REACHED: z.object({
    status: z.string().describe('The status that still held jobs when the cap was reached.'),
    removedSoFar: z.number().int().describe('Jobs removed by this call before it stopped.'),
    removedByStatus: z.record(z.string(), z.number().int()).describe('Jobs removed per status.'),
    statusesPurged: z.array(z.string()).describe('Statuses emptied before the cap.'),
    removedJobIdsSample: z.array(z.string()).describe('Some of the removed job ids.'),
  }),
  QUEUE_NOT_EMPTY: z.object({
    jobCounts: z.record(z.string(), z.number().int()).describe('Jobs per status that block the delete.'),
  }),
  RATE_LIMITED: z.object({ retryAfterSeconds: z.number().int().describe('Seconds until a retry may succeed.') }),
  STORE_UNAVAILABLE: storeFault,
  STORE_OUT_OF_MEMORY: storeFault,
  ENCRYPTION_KEY_MISMATCH: z.object({ connectionId }),
};

/** The body of every error response: `message` and `code`, plus fields some routes add. */
export const errorBodySchema = z
  .object({
    message: z.string().describe('What went wrong, naming the offending input where there is one.'),
    code: z.string().describe('Machine-readable error code, e.g. VALIDATION_FAILED or STORE_UNAVAILABLE.'),
    issues: z
      .array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() }))
      .optional()
      .describe('Input validation problems, one per offending field.'),
  })
  .catchall(z.unknown());

export type ErrorBody = z.infer<typeof errorBodySchema>;
