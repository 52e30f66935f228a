import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { z } from 'zod';
import { errorStatusByCode, type ErrorCode } from '../../contracts/error-codes.js';
import { AppError } from '../../contracts/app-error.js';
import { isDatabaseUnreachable } from '../persistence/database-unavailable.js';
import { redactUrlCredentials } from '../secrets/redact-credentials.js';

export interface InputIssue {
  path: Array<string | number>;
  message: string;
}

/** What the client is told about an error: the same on REST and tRPC. */
export interface ErrorDescription {
  code: ErrorCode;
  httpStatus: number;
  message: string;
  details: Record<string, unknown>;
  issues?: InputIssue[];
}

const trpcCodeByStatus: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  // tRPC has no "Gone"; the REST answer takes its status from the description (error-body.ts).
  410: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

/** Errors raised by tRPC or the REST adapter themselves, before any procedure runs. */
const codeByTrpcCode: Partial<Record<TRPC_ERROR_CODE_KEY, ErrorCode>> = {
  PARSE_ERROR: 'INVALID_JSON',
  BAD_REQUEST: 'BAD_REQUEST',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_SUPPORTED: 'METHOD_NOT_ALLOWED',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  CONFLICT: 'CONFLICT',
  TOO_MANY_REQUESTS: 'RATE_LIMITED',
};

/** Messages can quote a client library's error text, which can quote a URL: credentials are masked. */
function describe(code: ErrorCode, message: string, details: Record<string, unknown> = {}): ErrorDescription {
  return { code, httpStatus: errorStatusByCode[code], message: redactUrlCredentials(message), details };
}

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.length === 0 ? 'input' : path.map(String).join('.');
}

/** Unknown fields, each as its dotted path (`to.connectionid`), from zod's `unrecognized_keys` issues. */
function unknownFieldsOf(error: z.core.$ZodError): string[] {
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path.map(String), key].join('.')) : [],
  );
}

/**
 * Inputs are strict objects (contracts use z.strictObject): a field the route
 * does not take is refused by name rather than dropped, so a misspelt
 * `confirmname` or a `dryRun` the route does not implement never runs as if absent.
 */
export function unknownFieldsError(fields: string[]): AppError {
  const list = fields.map((field) => `"${field}"`).join(', ');
  const them = fields.length > 1 ? 'them' : 'it';
  return new AppError(
    'UNKNOWN_FIELD',
    `Unknown field${fields.length > 1 ? 's' : ''} ${list}: this route does not take ${them} (names are case-sensitive); nothing changed`,
    { fields },
  );
}

function describeValidation(error: z.core.$ZodError): ErrorDescription {
  const unknownFields = unknownFieldsOf(error);
  if (unknownFields.length > 0) {
    const refusal = unknownFieldsError(unknownFields);
    return describe(refusal.code, refusal.message, refusal.details);
  }
  const issues = error.issues.map((issue) => ({
    path: issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment))),
    message: issue.message,
  }));
  const summary = issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`).join('; ');
  return { ...describe('VALIDATION_FAILED', `Invalid input: ${summary}`), issues };
}

/** Classifies any error a procedure or the transport raised. */
export function describeError(error: unknown): ErrorDescription {
  const cause = error instanceof TRPCError ? (error.cause ?? error) : error;
  if (cause instanceof AppError) return describe(cause.code, cause.message, cause.details);
  if (cause instanceof z.core.$ZodError) return describeValidation(cause);
  if (isDatabaseUnreachable(cause)) {
    return describe('DATABASE_UNAVAILABLE', 'The database is unavailable; try again shortly');
  }
  if (error instanceof TRPCError && error.code !== 'INTERNAL_SERVER_ERROR') {
    return describe(codeByTrpcCode[error.code] ?? 'BAD_REQUEST', error.message);
  }
  return describe('INTERNAL_ERROR', 'Internal error; the service log has the details');
}

/** The TRPCError that makes both transports answer with the description's HTTP status. */
export function toTrpcError(error: TRPCError): TRPCError {
  const description = describeError(error);
  const code = trpcCodeByStatus[description.httpStatus] ?? 'INTERNAL_SERVER_ERROR';
  if (code === error.code) return error;
  return new TRPCError({ code, message: description.message, cause: error.cause ?? error });
}
