import { z } from 'zod';

/**
 * Every machine-readable error code the API answers with, and the HTTP status
 * it travels with: the one table the REST, tRPC and MCP transports all obey
 * (server/trpc/errors.ts gives each status its tRPC code). A new code takes a
 * line here, one in `errorDescriptionByCode` below, and its extra fields, if
 * any, in error-body.ts.
 */
export const errorStatusByCode = {
  VALIDATION_FAILED: 400,
  UNKNOWN_FIELD: 400,
  INVALID_JSON: 400,
  INVALID_URL: 400,
  BODY_TOO_DEEP: 400,
  BAD_REQUEST: 400,
  CONFIRMATION_MISMATCH: 400,
  REASON_REQUIRED: 400,
  AUTHLESS_MODE: 400,
  CONNECTION_TARGET_FORBIDDEN: 400,
  WEBHOOK_TARGET_FORBIDDEN: 400,
  CURRENT_PASSWORD_INCORRECT: 400,
  RESET_LINK_INVALID: 400,
  UNSUPPORTED_QUEUE_NAME: 400,
  SECRETS_MISSING: 400,
  NOT_A_KEY_VALUE_STORE: 400,
  NOT_SUPPORTED_BY_BACKEND: 400,
  BULLMQ_SCHEMA_MISSING: 400,
  BULLMQ_SCHEMA_UNSUPPORTED: 400,
  MOVE_JOURNAL_MISSING: 400,
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
  LAST_SIGN_IN_METHOD: 409,
  PURGE_CAP_REACHED: 409,
  QUEUE_NOT_EMPTY: 409,
  JOB_ACTIVE: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  INVITATION_EXPIRED: 410,
  INVITATION_USED: 410,
  RESPONSE_TOO_LARGE: 422,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  PERSISTENCE_UNAVAILABLE: 500,
  ENCRYPTION_KEY_MISSING: 500,
  ENCRYPTION_KEY_MISMATCH: 500,
  UPSTREAM_UNAVAILABLE: 502,
  DATABASE_UNAVAILABLE: 503,
  STORE_UNAVAILABLE: 503,
  STORE_OUT_OF_MEMORY: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof errorStatusByCode;

export const errorCodeSchema = z.enum(Object.keys(errorStatusByCode) as [ErrorCode, ...ErrorCode[]]);

/** What each code means, for the API document (a route may say more in its `meta.errors`). */
export const errorDescriptionByCode: Record<ErrorCode, string> = {
  VALIDATION_FAILED: 'Invalid input; `issues` or `field` names the offending field',
  UNKNOWN_FIELD:
    'A field the route does not take (bodies, query strings and tRPC inputs are strict); `fields` names each one, with the field it may be a misspelling of (nothing changed)',
  INVALID_JSON: 'The body is not valid JSON',
  INVALID_URL: 'A store URL that cannot be parsed (e.g. a malformed percent escape); `field` names it',
  BODY_TOO_DEEP: 'JSON nested deeper than 64 levels',
  BAD_REQUEST: 'The request cannot be read (e.g. a path parameter that is not valid percent-encoding)',
  CONFIRMATION_MISMATCH:
    '`confirmName` is missing where the route requires it, or differs from the queue name (`queueName`) or, on connection-wide routes, the connection name (`connectionName`) it must equal exactly (nothing changed)',
  REASON_REQUIRED:
    'SERVICE_REQUIRE_REASON asks this change for a reason (destructive changes with `destructive`, every store change with `all-writes`): send it in the `Bullpen-Reason` header (MCP: the `reason` argument); `setting` names the variable (nothing changed)',
  AUTHLESS_MODE: 'The service runs in authless mode, where accounts do not exist',
  WEBHOOK_TARGET_FORBIDDEN:
    'The webhook host is outside SERVICE_WEBHOOK_ALLOW, does not resolve, or is link-local (cloud metadata) and not listed by address; `target` names it',
  CONNECTION_TARGET_FORBIDDEN:
    'The store host is outside SERVICE_CONNECTION_ALLOW, does not resolve, or is link-local (cloud metadata) and not listed by address; `target` names it',
  CURRENT_PASSWORD_INCORRECT: '`currentPassword` is not your current password',
  RESET_LINK_INVALID: 'The password reset link is unknown, already used or expired (links last one hour)',
  NOT_A_KEY_VALUE_STORE:
    "The connection holds its queues in PostgreSQL (BullMQ's PostgreSQL backend): it has no keys to list, read or delete",
  NOT_SUPPORTED_BY_BACKEND:
    'The route does not work on this kind of connection yet (a PostgreSQL connection: see README "Connections" for the routes that do); nothing changed',
  BULLMQ_SCHEMA_MISSING:
    "The PostgreSQL connection has no BullMQ schema (`schema`, default `bullmq`): run BullMQ's migrations (a BullMQ Queue with `migrate: true`), or save the connection with `migrate: true`",
  BULLMQ_SCHEMA_UNSUPPORTED:
    'The BullMQ schema of the PostgreSQL connection was migrated by a newer BullMQ than this service runs: upgrade Bullpen',
  MOVE_JOURNAL_MISSING:
    "A move into a PostgreSQL connection needs Bullpen's move journal (the table `bullpen_move_journal` in its BullMQ schema) and the connection may not create it: create it as docs/api.md shows; nothing moved",
  UNSUPPORTED_QUEUE_NAME:
    'The route would create a queue whose name holds ":", which BullMQ refuses (existing such queues stay readable and operable); or, on a Redis Cluster, the queue has no hash tag in its name or prefix, so its keys span slots and no script can run on it (it is still listed, with zero counts)',
  SECRETS_MISSING:
    'A definitions import needs secrets it was not given (nothing changed); `missingSecrets` names each, with the environment variable the document names for it',
  JOB_ACTIVE: 'A worker holds the job (it is active): its data cannot change under it; try when it finishes',
  IDEMPOTENCY_KEY_IN_USE:
    'A request with this `Idempotency-Key` is still running (nothing was done for this one); retry once it has answered',
  IDEMPOTENCY_KEY_REUSED:
    'This `Idempotency-Key` was used with a different request on this route within 24 hours (nothing was done); use a new key for a new request',
  UNAUTHORIZED: 'Not signed in: no valid session cookie or API token',
  FORBIDDEN:
    'The role may not do this, the organization is not yours, a read-only API token (`scope: read`) asked for a change, or a cookie-authenticated change came from another origin (CSRF)',
  RESERVED_KEY: 'The key belongs to the queue library',
  SIGNUP_CLOSED:
    'SERVICE_SIGNUP does not admit this sign-up: `invite` needs an `invitationToken`, `closed` refuses every new account; `setting` names the variable',
  SETUP_TOKEN_REQUIRED:
    'The first account on a non-loopback listener needs the one-time `setupToken` printed in the service log at first start',
  INVITATION_EMAIL_MISMATCH: 'The invitation was sent to another email address',
  CONNECTION_PROTECTED:
    "The connection's `protection` refuses this (nothing changed): `read-only` refuses every change to the store, `admin` leaves destructive actions to admins and owners, `confirm` needs `confirmName` on them; `protection` names the setting, `confirmName` the name to send",
  NOT_FOUND: 'A resource named in the path or body does not exist',
  INVITATION_NOT_FOUND: 'No such invitation: it was revoked, or the token is wrong',
  METHOD_NOT_ALLOWED: 'The path exists, with other methods (see `Allow`)',
  CONFLICT: 'The change conflicts with what exists',
  LAST_OWNER: 'The organization would be left without an owner',
  LAST_SIGN_IN_METHOD:
    'The account would be left with no way to sign in (no password and no other linked identity provider account); link another provider or set a password first',
  PURGE_CAP_REACHED: 'The safety cap of batches was reached for `status`; `removedSoFar` jobs were removed, run again',
  QUEUE_NOT_EMPTY: 'Jobs other than completed remain (nothing removed); `jobCounts` says which',
  INVITATION_EXPIRED: 'The invitation has expired; ask for a new one',
  INVITATION_USED: 'The invitation was already used',
  RESPONSE_TOO_LARGE:
    'The answer would exceed SERVICE_MAX_RESPONSE_BYTES; `readInParts` names the route that reads it in parts (a job: field by field, by byte ranges)',
  PAYLOAD_TOO_LARGE: 'The body is over 1 MB',
  UNSUPPORTED_MEDIA_TYPE: 'A non-empty body that is not `application/json`',
  RATE_LIMITED: 'Too many requests; retry after `retryAfterSeconds` (also the `Retry-After` header)',
  INTERNAL_ERROR: 'Unexpected failure; the service log has the details',
  PERSISTENCE_UNAVAILABLE: 'The service could not open its database at startup',
  ENCRYPTION_KEY_MISSING: 'Saved connections need SERVICE_ENCRYPTION_KEY, which is not configured',
  ENCRYPTION_KEY_MISMATCH: 'A saved connection URL cannot be decrypted with SERVICE_ENCRYPTION_KEY',
  UPSTREAM_UNAVAILABLE: 'The analytics upstream of `/ingest` failed or timed out',
  DATABASE_UNAVAILABLE: 'The database is unavailable; try again shortly',
  STORE_UNAVAILABLE:
    'The Redis store of the connection is unavailable (down, refusing the password, loading its dataset, or a read-only replica); retry after `Retry-After` seconds',
  STORE_OUT_OF_MEMORY:
    'The Redis store of the connection is at `maxmemory` with `noeviction` and refuses writes (nothing was half-written); retry after `Retry-After` seconds, once memory is freed',
};

/** Route-specific error codes a procedure declares in its meta, each with when it happens (empty: the code's own description). */
export type RouteErrors = Partial<Record<ErrorCode, string>>;
