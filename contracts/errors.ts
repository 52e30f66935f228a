import { z } from 'zod';
import { connectionProtectionSchema } from './protection.js';

/**
 * Every machine-readable error code the API answers with, and the HTTP status
 * it travels with. The one table the REST and tRPC transports both obey.
 */
export const errorStatusByCode = {
  VALIDATION_FAILED: 400,
  INVALID_JSON: 400,
  INVALID_URL: 400,
  BODY_TOO_DEEP: 400,
  BAD_REQUEST: 400,
  CONFIRMATION_MISMATCH: 400,
  AUTHLESS_MODE: 400,
  CONNECTION_TARGET_FORBIDDEN: 400,
  WEBHOOK_TARGET_FORBIDDEN: 400,
  CURRENT_PASSWORD_INCORRECT: 400,
  RESET_LINK_INVALID: 400,
  UNSUPPORTED_QUEUE_NAME: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  RESERVED_KEY: 403,
  SIGNUP_CLOSED: 403,
  SETUP_TOKEN_REQUIRED: 403,
  INVITATION_EMAIL_MISMATCH: 403,
  CONNECTION_PROTECTED: 403,
  NOT_FOUND: 404,
  INVITATION_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  LAST_OWNER: 409,
  PURGE_CAP_REACHED: 409,
  QUEUE_NOT_EMPTY: 409,
  JOB_ACTIVE: 409,
  INVITATION_EXPIRED: 410,
  INVITATION_USED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  PERSISTENCE_UNAVAILABLE: 500,
  ENCRYPTION_KEY_MISSING: 500,
  ENCRYPTION_KEY_MISMATCH: 500,
  UPSTREAM_UNAVAILABLE: 502,
  DATABASE_UNAVAILABLE: 503,
  STORE_UNAVAILABLE: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof errorStatusByCode;

export const errorCodeSchema = z.enum(Object.keys(errorStatusByCode) as [ErrorCode, ...ErrorCode[]]);

/** What each code means, for the API document (a route may say more in its `meta.errors`). */
export const errorDescriptionByCode: Record<ErrorCode, string> = {
  VALIDATION_FAILED: 'Invalid input; `issues` or `field` names the offending field',
  INVALID_JSON: 'The body is not valid JSON',
  INVALID_URL: 'A store URL that cannot be parsed (e.g. a malformed percent escape); `field` names it',
  BODY_TOO_DEEP: 'JSON nested deeper than 64 levels',
  BAD_REQUEST: 'The request cannot be read (e.g. a path parameter that is not valid percent-encoding)',
  CONFIRMATION_MISMATCH: '`confirmName` differs from the queue name (nothing changed)',
  AUTHLESS_MODE: 'The service runs in authless mode, where accounts do not exist',
  WEBHOOK_TARGET_FORBIDDEN: 'The webhook host is outside SERVICE_WEBHOOK_ALLOW, does not resolve, or is link-local (cloud metadata) and not listed by address; `target` names it',
  CONNECTION_TARGET_FORBIDDEN: 'The store host is outside SERVICE_CONNECTION_ALLOW, does not resolve, or is link-local (cloud metadata) and not listed by address; `target` names it',
  CURRENT_PASSWORD_INCORRECT: '`currentPassword` is not your current password',
  RESET_LINK_INVALID: 'The password reset link is unknown, already used or expired (links last one hour)',
  UNSUPPORTED_QUEUE_NAME: 'The route would create a queue whose name holds ":", which BullMQ refuses (existing such queues stay readable and operable)',
  JOB_ACTIVE: 'A worker holds the job (it is active): its data cannot change under it; try when it finishes',
  UNAUTHORIZED: 'Not signed in: no valid session cookie or API token',
  FORBIDDEN: 'The role may not do this, the organization is not yours, or a cookie-authenticated change came from another origin (CSRF)',
  RESERVED_KEY: 'The key belongs to the queue library',
  SIGNUP_CLOSED: 'SERVICE_SIGNUP does not admit this sign-up: `invite` needs an `invitationToken`, `closed` refuses every new account; `setting` names the variable',
  SETUP_TOKEN_REQUIRED: 'The first account on a non-loopback listener needs the one-time `setupToken` printed in the service log at first start',
  INVITATION_EMAIL_MISMATCH: 'The invitation was sent to another email address',
  CONNECTION_PROTECTED:
    "The connection's `protection` refuses this (nothing changed): `read-only` refuses every change to the store, `admin` leaves destructive actions to admins and owners, `confirm` needs `confirmName` on them; `protection` names the setting, `confirmName` the name to send",
  NOT_FOUND: 'A resource named in the path or body does not exist',
  INVITATION_NOT_FOUND: 'No such invitation: it was revoked, or the token is wrong',
  METHOD_NOT_ALLOWED: 'The path exists, with other methods (see `Allow`)',
  CONFLICT: 'The change conflicts with what exists',
  LAST_OWNER: 'The organization would be left without an owner',
  PURGE_CAP_REACHED: 'The safety cap of batches was reached for `status`; `removedSoFar` jobs were removed, run again',
  QUEUE_NOT_EMPTY: 'Jobs other than completed remain (nothing removed); `jobCounts` says which',
  INVITATION_EXPIRED: 'The invitation has expired; ask for a new one',
  INVITATION_USED: 'The invitation was already used',
  PAYLOAD_TOO_LARGE: 'The body is over 1 MB',
  UNSUPPORTED_MEDIA_TYPE: 'A non-empty body that is not `application/json`',
  RATE_LIMITED: 'Too many requests; retry after `retryAfterSeconds` (also the `Retry-After` header)',
  INTERNAL_ERROR: 'Unexpected failure; the service log has the details',
  PERSISTENCE_UNAVAILABLE: 'The service could not open its database at startup',
  ENCRYPTION_KEY_MISSING: 'Saved connections need SERVICE_ENCRYPTION_KEY, which is not configured',
  ENCRYPTION_KEY_MISMATCH: 'A saved connection URL cannot be decrypted with SERVICE_ENCRYPTION_KEY',
  UPSTREAM_UNAVAILABLE: 'The analytics upstream of `/ingest` failed or timed out',
  DATABASE_UNAVAILABLE: 'The database is unavailable; try again shortly',
  STORE_UNAVAILABLE: 'The Redis store of the connection is unavailable',
};

const field = z.string().describe('The offending input field.');
const connectionId = z.string().describe('The connection concerned.');

/**
 * The fields an error of a code may carry besides `message` and `code`
 * (AppError `details`); the API document lists them per response.
 */
export const errorDetailsByCode: Partial<Record<ErrorCode, z.ZodObject>> = {
  VALIDATION_FAILED: z.object({
    issues: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() })).optional().describe('Input validation problems, one per offending field.'),
    field: field.optional(),
  }),
  CONFIRMATION_MISMATCH: z.object({ queueName: z.string().describe('The name `confirmName` must equal.') }),
  FORBIDDEN: z.object({
    permission: z.string().optional().describe('The permission the role lacks.'),
    organizationId: z.string().optional(),
    connectionId: connectionId.optional(),
    reason: z.literal('csrf').optional().describe('Set when a cookie-authenticated change came from another origin.'),
  }),
  RESERVED_KEY: z.object({ key: z.string() }),
  CONNECTION_PROTECTED: z.object({
    connectionId,
    protection: connectionProtectionSchema,
    permission: z.string().describe('The refused action (its permission).'),
    confirmName: z.string().optional().describe('With `confirm`: the `confirmName` the action needs (the queue name, or the connection name on connection-wide routes).'),
  }),
  CONNECTION_TARGET_FORBIDDEN: z.object({ target: z.string().describe('The refused `host:port`.') }),
  WEBHOOK_TARGET_FORBIDDEN: z.object({ target: z.string().describe('The refused `host:port`.') }),
  SIGNUP_CLOSED: z.object({ setting: z.literal('SERVICE_SIGNUP').describe('The variable that decides who may sign up.') }),
  UNSUPPORTED_QUEUE_NAME: z.object({ queueName: z.string().describe('The refused queue name.') }),
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
  QUEUE_NOT_EMPTY: z.object({ jobCounts: z.record(z.string(), z.number().int()).describe('Jobs per status that block the delete.') }),
  RATE_LIMITED: z.object({ retryAfterSeconds: z.number().int().describe('Seconds until a retry may succeed.') }),
  STORE_UNAVAILABLE: z.object({ connectionId }),
  ENCRYPTION_KEY_MISMATCH: z.object({ connectionId }),
};

/** Route-specific error codes a procedure declares in its meta, each with when it happens (empty: the code's own description). */
export type RouteErrors = Partial<Record<ErrorCode, string>>;

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
