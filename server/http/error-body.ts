import type { Response } from 'express';
import type { ErrorBody } from '../../contracts/error-body.js';
import { errorStatusByCode, type ErrorCode } from '../../contracts/error-codes.js';
import type { ErrorDescription } from '../trpc/errors.js';

/**
 * The one formatter of the error body: `{ message, code, …details }`, plus `issues` for invalid input.
 * Every transport answers with it: REST, plain routes, MCP tool results and the service's own refusals.
 */
export function errorBody(description: Omit<ErrorDescription, 'httpStatus'>): ErrorBody {
  const body: ErrorBody = { message: description.message, code: description.code, ...description.details };
  if (description.issues) body.issues = description.issues;
  return body;
}

/** Sends the one error body shape, for errors raised outside the procedures (body parsing, unknown routes). */
export function sendError(res: Response, code: ErrorCode, message: string): void {
  res
    .status(errorStatusByCode[code])
    .type('application/json')
    .send(JSON.stringify(errorBody({ code, message, details: {} })));
}

const codeByClientStatus: Partial<Record<number, ErrorCode>> = {
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

/**
 * Sends an error express or body-parser raised about the request itself
 * (a body that does not decompress, a path that is not valid
 * percent-encoding: http-errors with a 4xx status) as the 4xx it is.
 * Returns false for anything else, which stays a 500.
 */
export function sendClientError(res: Response, error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status !== 'number' || status < 400 || status > 499) return false;
  const message = error instanceof Error ? error.message : 'the request could not be read';
  sendError(res, codeByClientStatus[status] ?? 'BAD_REQUEST', `Malformed request: ${message}`);
  return true;
}

/** Sends a classified error (see describeError) as the one error body shape; a 503 says when to retry. */
export function sendErrorDescription(res: Response, description: ErrorDescription): void {
  if (description.httpStatus === 503) res.setHeader('Retry-After', '2');
  res
    .status(description.httpStatus)
    .type('application/json')
    .send(JSON.stringify(errorBody(description)));
}
