import { z } from 'zod';

/**
 * Every machine-readable error code the API answers with, and the HTTP status
 * it travels with. The one table the REST and tRPC transports both obey.
 */
export const errorStatusByCode = {
  VALIDATION_FAILED: 400,
  INVALID_JSON: 400,
  BAD_REQUEST: 400,
  CONFIRMATION_MISMATCH: 400,
  AUTHLESS_MODE: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  RESERVED_KEY: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  LAST_OWNER: 409,
  PURGE_CAP_REACHED: 409,
  QUEUE_NOT_EMPTY: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  PERSISTENCE_UNAVAILABLE: 500,
  ENCRYPTION_KEY_MISSING: 500,
  ENCRYPTION_KEY_MISMATCH: 500,
  DATABASE_UNAVAILABLE: 503,
  STORE_UNAVAILABLE: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof errorStatusByCode;

export const errorCodeSchema = z.enum(Object.keys(errorStatusByCode) as [ErrorCode, ...ErrorCode[]]);

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
