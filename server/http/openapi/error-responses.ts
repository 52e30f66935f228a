import { z } from 'zod';
import { errorBodySchema, errorDetailsByCode } from '../../../contracts/error-body.js';
import {
  errorDescriptionByCode,
  errorStatusByCode,
  type ErrorCode,
  type RouteErrors,
} from '../../../contracts/error-codes.js';
import { storeChangeByPermission } from '../../../contracts/permissions.js';
import type { OperationFacts } from './operations.js';
import { honoursIdempotencyKey } from '../../trpc/middleware/honour-idempotency-key.js';

type JsonSchema = Record<string, unknown>;
type ResponseObject = { description: string; [key: string]: unknown } | { $ref: string };

/**
 * Responses whose codes every route of a kind shares, kept once in
 * `components.responses`. A route that adds a code at one of these statuses
 * gets its own response with the shared codes and its own.
 */
const sharedResponses: Record<string, readonly ErrorCode[]> = {
  Unauthorized: ['UNAUTHORIZED'],
  Forbidden: ['FORBIDDEN'],
  PayloadTooLarge: ['PAYLOAD_TOO_LARGE'],
  UnsupportedMediaType: ['UNSUPPORTED_MEDIA_TYPE'],
  RateLimited: ['RATE_LIMITED'],
  InternalError: ['INTERNAL_ERROR', 'PERSISTENCE_UNAVAILABLE'],
  ServiceUnavailable: ['DATABASE_UNAVAILABLE'],
};

const bodyMethods = new Set(['post', 'put', 'patch', 'delete']);

/** The codes a route gives by what it is (public or not, with a body, under a connection...). */
export function impliedErrorCodes(operation: OperationFacts): ErrorCode[] {
  const codes: ErrorCode[] = ['RATE_LIMITED', 'INTERNAL_ERROR', 'PERSISTENCE_UNAVAILABLE', 'DATABASE_UNAVAILABLE'];
  if (!operation.public) codes.push('UNAUTHORIZED', 'FORBIDDEN');
  else if (operation.mutation) codes.push('FORBIDDEN'); // the CSRF Origin rule
  if (bodyMethods.has(operation.method))
    codes.push('PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'INVALID_JSON', 'BODY_TOO_DEEP');
  if (operation.hasInput) codes.push('VALIDATION_FAILED');
  if (operation.path.includes('{')) codes.push('BAD_REQUEST');
  if (operation.path.startsWith('/c/{connectionId}'))
    codes.push('NOT_FOUND', 'STORE_UNAVAILABLE', 'ENCRYPTION_KEY_MISSING', 'ENCRYPTION_KEY_MISMATCH');
  if (operation.path.startsWith('/c/{connectionId}') && storeWrite(operation)) codes.push('STORE_OUT_OF_MEMORY'); // a full store refuses writes
  // PostgreSQL connections (BullMQ's PostgreSQL backend): a schema to check, and routes not ported to them yet.
  if (operation.path.startsWith('/c/{connectionId}'))
    codes.push('NOT_SUPPORTED_BY_BACKEND', 'BULLMQ_SCHEMA_MISSING', 'BULLMQ_SCHEMA_UNSUPPORTED');
  if (operation.path.startsWith('/c/{connectionId}/store-keys')) codes.push('NOT_A_KEY_VALUE_STORE');
  if (operation.meta.queue === 'create') codes.push('UNSUPPORTED_QUEUE_NAME'); // a new queue BullMQ would refuse
  if (honoursIdempotencyKey(operation.meta)) codes.push('IDEMPOTENCY_KEY_IN_USE', 'IDEMPOTENCY_KEY_REUSED');
  if (protectionRefusal(operation)) codes.push('CONNECTION_PROTECTED');
  if (takesConfirmName(operation)) codes.push('CONFIRMATION_MISMATCH'); // decideCall: a confirmName sent must be right
  if (reasonRefusal(operation)) codes.push('REASON_REQUIRED');
  return codes;
}

type RequestBody = { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };

/** Whether the route takes `confirmName`, in its query or its body (wherever sent, a wrong one is refused). */
function takesConfirmName({ operation }: Pick<OperationFacts, 'operation'>): boolean {
  const parameters = (operation.parameters ?? []) as Array<{ name?: string }>;
  if (parameters.some((parameter) => parameter.name === 'confirmName')) return true;
  const properties = (operation.requestBody as RequestBody | undefined)?.content?.['application/json']?.schema
    ?.properties;
  return properties !== undefined && 'confirmName' in properties;
}

/** Whether the route writes to the store (its permission changes it): what a store out of memory refuses. */
function storeWrite({ meta }: Pick<OperationFacts, 'meta'>): boolean {
  return (meta.permission ? storeChangeByPermission[meta.permission] : 'none') !== 'none';
}

/** The SERVICE_REQUIRE_REASON values that ask a route for a reason (server/auth/require-reason.ts): store changes only. */
export function reasonPolicies({ path, meta }: Pick<OperationFacts, 'path' | 'meta'>): string | undefined {
  const change = meta.permission ? storeChangeByPermission[meta.permission] : 'none';
  if (!path.startsWith('/c/{connectionId}') || change === 'none') return undefined;
  return change === 'destroy' ? '`destructive` or `all-writes`' : '`all-writes`';
}

function reasonRefusal(operation: Pick<OperationFacts, 'path' | 'meta'>): string | undefined {
  const policies = reasonPolicies(operation);
  return (
    policies && `SERVICE_REQUIRE_REASON is ${policies} and no \`Bullpen-Reason\` header was sent (nothing changed)`
  );
}

/**
 * When a connection's protection refuses a route (server/auth/connection-protection.ts):
 * a write on a read-only connection; a destructive action also under `admin` and `confirm`.
 */
function protectionRefusal({ path, meta }: Pick<OperationFacts, 'path' | 'meta'>): string | undefined {
  const change = meta.permission ? storeChangeByPermission[meta.permission] : 'none';
  if (!path.startsWith('/c/{connectionId}') || change === 'none') return undefined;
  if (change === 'write') return 'The connection is read-only (its `protection`)';
  const name = path.includes('{queueName}') ? 'the queue name' : "the connection's name";
  return `The connection's \`protection\` refuses it: \`read-only\`; \`admin\` and your role is below admin; \`confirm\` and \`confirmName\` is not ${name}`;
}

/** A zod schema as a JSON Schema to embed in the document (no `$schema`, no `id`). */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  delete json.id;
  return json;
}

/** `ErrorBody` plus, for one status of one route: `code` as the enum of its codes and their extra fields. */
function errorSchema(codes: ErrorCode[]): JsonSchema {
  const properties: Record<string, unknown> = { code: { type: 'string', enum: codes } };
  const required = ['code'];
  for (const code of codes) {
    const details = errorDetailsByCode[code];
    if (!details) continue;
    const json = jsonSchemaOf(details);
    Object.assign(properties, json.properties);
    if (codes.length === 1) required.push(...((json.required as string[] | undefined) ?? []));
  }
  return { allOf: [{ $ref: '#/components/schemas/ErrorBody' }, { type: 'object', properties, required }] };
}

function describeCodes(codes: ErrorCode[], routeErrors: RouteErrors): string {
  const why = (code: ErrorCode) => routeErrors[code] || errorDescriptionByCode[code];
  if (codes.length === 1) return `\`${codes[0]}\`: ${why(codes[0]!)}`;
  return codes.map((code) => `- \`${code}\`: ${why(code)}`).join('\n');
}

/** Codes whose answer carries `Retry-After` (server/trpc/middleware/map-errors.ts: every 503, and 429). */
const retryAfterCodes: readonly ErrorCode[] = [
  'RATE_LIMITED',
  'DATABASE_UNAVAILABLE',
  'STORE_UNAVAILABLE',
  'STORE_OUT_OF_MEMORY',
];

const retryAfterHeader = {
  'Retry-After': { description: 'Seconds until a retry may succeed.', schema: { type: 'integer' } },
};

function errorResponse(codes: ErrorCode[], routeErrors: RouteErrors): { description: string; [key: string]: unknown } {
  return {
    description: describeCodes(codes, routeErrors),
    ...(codes.some((code) => retryAfterCodes.includes(code)) ? { headers: retryAfterHeader } : {}),
    content: { 'application/json': { schema: errorSchema(codes) } },
  };
}

const sameCodes = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((code) => b.includes(code));

/** `components.responses` (the shared errors) and `components.schemas.ErrorBody`. */
export function sharedErrorComponents(): {
  responses: Record<string, { description: string; [key: string]: unknown }>;
  errorBody: JsonSchema;
} {
  const responses = Object.fromEntries(
    Object.entries(sharedResponses).map(([name, codes]) => [name, errorResponse([...codes], {})]),
  );
  return { responses, errorBody: jsonSchemaOf(errorBodySchema) };
}

const resourceByPathParam: Record<string, string> = {
  connectionId: 'connection',
  queueName: 'queue',
  jobId: 'job',
  schedulerId: 'scheduler',
  key: 'key',
  ruleId: 'rule',
  eventId: 'event',
  taskId: 'task',
};

/**
 * "No such connection, queue or job": what a 404 of a connection route can be
 * about, from its path. A route that creates its queue (`meta.queue: 'create'`)
 * never 404s for it.
 */
function missingResources({ path, meta }: Pick<OperationFacts, 'path' | 'meta'>): string | undefined {
  const named = [...path.matchAll(/\{(\w+)\}/g)].flatMap(([, name]) =>
    meta.queue === 'create' && name === 'queueName' ? [] : [name!],
  );
  const resources = named.flatMap((name) => resourceByPathParam[name] ?? []);
  if (!path.startsWith('/c/{connectionId}') || resources.length === 0) return undefined;
  const last = resources.pop()!;
  return `No such ${resources.length ? `${resources.join(', ')} or ${last}` : last}`;
}

/** Every error status of one operation, each with exactly the codes it can carry. */
export function errorResponsesOf(operation: OperationFacts): Record<string, ResponseObject> {
  const missing = missingResources(operation);
  const protection = protectionRefusal(operation);
  const reason = reasonRefusal(operation);
  const descriptions: RouteErrors = {
    ...(missing ? { NOT_FOUND: missing } : {}),
    ...(protection ? { CONNECTION_PROTECTED: protection } : {}),
    ...(reason ? { REASON_REQUIRED: reason } : {}),
    ...operation.errors,
  };
  const codes = [...new Set([...impliedErrorCodes(operation), ...(Object.keys(operation.errors) as ErrorCode[])])];
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorStatusByCode[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, ResponseObject> = {};
  for (const [status, statusCodes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const ownDescriptions = statusCodes.some((code) => descriptions[code]);
    const shared = Object.entries(sharedResponses).find(([, sharedCodes]) => sameCodes(sharedCodes, statusCodes));
    responses[String(status)] =
      shared && !ownDescriptions
        ? { $ref: `#/components/responses/${shared[0]}` }
        : errorResponse(statusCodes, descriptions);
  }
  return responses;
}
