import type { Response } from 'express';
import { errorStatusByCode, type ErrorBody, type ErrorCode } from '../../contracts/errors.js';

/** Sends the one error body shape, for errors raised outside the procedures (body parsing, unknown routes). */
export function sendError(res: Response, code: ErrorCode, message: string): void {
  const body: ErrorBody = { message, code };
  res.status(errorStatusByCode[code]).type('application/json').send(JSON.stringify(body));
}

const codeByClientStatus: Partial<Record<number, ErrorCode>> = { 413: 'PAYLOAD_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE' };

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

/** Sends a classified error (see describeError) as the one error body shape. */
export function sendErrorDescription(res: Response, description: { httpStatus: number; code: string; message: string; details: Record<string, unknown> }): void {
  const body: ErrorBody = { message: description.message, code: description.code, ...description.details };
  if (description.httpStatus === 503) res.setHeader('Retry-After', '2');
  res.status(description.httpStatus).type('application/json').send(JSON.stringify(body));
}

interface TrpcErrorShapeBody {
  message?: string;
  data?: { code?: string; httpStatus?: number; message?: string; details?: Record<string, unknown>; issues?: unknown[]; path?: string };
}

/** Turns the adapter's error body (tRPC shape plus its own fields) into ours. */
export function toRestErrorBody(raw: TrpcErrorShapeBody, route: string): ErrorBody {
  const data = raw.data ?? {};
  const code = data.code ?? 'INTERNAL_ERROR';
  const unmatchedRoute = data.path === undefined && code === 'NOT_FOUND';
  return {
    message: unmatchedRoute ? `No route matches ${route}` : (data.message ?? raw.message ?? 'Internal error'),
    code,
    ...data.details,
    ...(data.issues ? { issues: data.issues as ErrorBody['issues'] } : {}),
  };
}

/**
 * trpc-to-openapi writes `code` as the tRPC code (BAD_REQUEST, ...) and adds
 * the raw tRPC shape. Rewrite error bodies on their way out so REST callers
 * get `{ message, code, ...details }` with our codes. One place, all routes.
 */
export function rewriteErrorBodies(res: Response, route: string): void {
  const end = res.end.bind(res) as (chunk?: unknown, ...rest: unknown[]) => Response;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (res.statusCode >= 400 && typeof chunk === 'string' && chunk.startsWith('{')) {
      const raw = JSON.parse(chunk) as TrpcErrorShapeBody;
      // Statuses tRPC has no code for (410 Gone) travel in the description.
      if (raw.data?.httpStatus && raw.data.httpStatus !== res.statusCode && !res.headersSent) res.statusCode = raw.data.httpStatus;
      chunk = JSON.stringify(toRestErrorBody(raw, route));
      res.setHeader('Content-Length', Buffer.byteLength(chunk as string));
    }
    return end(chunk, ...rest);
  }) as Response['end'];
}
