import type { Request, Response } from 'express';
import { TRPCError, getTRPCErrorFromUnknown } from '@trpc/server';
import { errorStatusByCode } from '../../../contracts/error-codes.js';
import { largeBodyBytes, limitSendTime, responseTooLarge } from '../large-bodies.js';
import type { Context } from '../../trpc/context.js';
import { describeError, unknownFieldsError } from '../../trpc/errors.js';
import { errorBody } from '../error-body.js';
import type { RestMatch } from './rest-match.js';
import type { RestRoute } from './rest-routes.js';

/** Query values as trpc-to-openapi reads them: empty ones left out, a repeated key an array. */
function queryInput(query: Record<string, unknown>, arrayKeys: ReadonlySet<string>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const key of Object.keys(query)) {
    const value = query[key];
    if (!value) continue;
    input[key] = Array.isArray(value) && value.length === 1 ? value[0] : value;
    if (arrayKeys.has(key) && !Array.isArray(input[key])) input[key] = [input[key]];
  }
  return input;
}

function inputOf(req: Request, match: RestMatch): unknown {
  const fromBody = req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'DELETE';
  if (match.route.takesNoInput) {
    // A route without input takes no field at all: one sent is refused, never ignored.
    const given = Object.keys((fromBody ? req.body : req.query) ?? {});
    if (given.length > 0) throw unknownFieldsError(given);
    return undefined;
  }
  if (fromBody && !req.headers['content-type']?.startsWith('application/json')) {
    const given = req.headers['content-type'];
    throw new TRPCError({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: given ? `Unsupported content-type "${given}` : 'Missing content-type header',
    });
  }
  const fields = fromBody
    ? (req.body as Record<string, unknown>)
    : queryInput(req.query as Record<string, unknown>, match.route.arrayQueryKeys);
  return { ...fields, ...match.params };
}

function sendJson(res: Response, status: number, body: unknown, maxBytes = Infinity): void {
  let text = JSON.stringify(body);
  // A UTF-16 unit is 1 to 3 bytes: only a long text is measured.
  const bytes = text.length * 3 > maxBytes || text.length > largeBodyBytes ? Buffer.byteLength(text) : text.length;
  if (bytes > maxBytes) {
    const error = responseTooLarge(
      'The answer',
      bytes,
      maxBytes,
      'a smaller page (pageSize, or a log range: start and end), or a job field by field (GET …/jobs/{jobId}/fields/{field})',
    );
    [status, text] = [errorStatusByCode.RESPONSE_TOO_LARGE, JSON.stringify(errorBody(error))];
  }
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  limitSendTime(res, bytes);
  res.end(text);
}

export interface RestHandlerOptions {
  createContext(opts: { req: Request; res: Response }): Context;
  onError(opts: { error: TRPCError; path?: string; req: Request }): void;
  /** The REST status of a success (200 unless the procedure declares 201/202). */
  successStatus(route: RestRoute, data: unknown): number;
  /** SERVICE_MAX_RESPONSE_BYTES: a larger answer is refused (RESPONSE_TOO_LARGE). */
  maxResponseBytes?: number;
}

/**
 * Runs the procedure a request matched and answers in the one body shape.
 * This is trpc-to-openapi's REST mapping done once: its express adapter
 * rebuilt per request what never changes (a URL, a fetch Request for an
 * abort signal nothing reads, a caller proxy, the schema coercion, a
 * regular-expression scan of every route) — over half the CPU of a job read.
 */
export function createRestHandler(options: RestHandlerOptions) {
  return async (req: Request, res: Response, match: RestMatch): Promise<void> => {
    const { route } = match;
    try {
      const input = inputOf(req, match);
      const ctx = options.createContext({ req, res });
      const data = await route.call({
        ctx,
        getRawInput: async () => input,
        path: route.path,
        type: route.type,
        signal: undefined,
        batchIndex: 0,
      });
      sendJson(res, options.successStatus(route, data), data, options.maxResponseBytes);
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause);
      options.onError({ error, path: route.path, req });
      const description = describeError(error);
      if (!res.headersSent) sendJson(res, description.httpStatus, errorBody(description));
    }
  };
}
