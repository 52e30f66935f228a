import type { IncomingMessage } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { sendClientError, sendError } from './error-body.js';

export const maxBodyBytes = 1024 * 1024;

const isJson = (req: IncomingMessage) => /^application\/([\w.+-]+\+)?json\b/i.test(req.headers['content-type'] ?? '');

/**
 * Parses JSON bodies (with or without a charset) up to the spec's 1 MB, and
 * answers oversize or malformed bodies with the JSON error shape.
 */
export const parseJsonBody = express.json({ limit: maxBodyBytes, type: isJson, strict: true });

export function jsonBodyErrors(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  const type = (error as { type?: string }).type;
  if (type === 'entity.too.large') return sendError(res, 'PAYLOAD_TOO_LARGE', 'Request body exceeds the 1 MB limit');
  if (type === 'entity.parse.failed') return sendError(res, 'INVALID_JSON', 'Request body is not valid JSON');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return sendError(res, 'UNSUPPORTED_MEDIA_TYPE', 'Request body encoding is not supported');
  }
  if (!sendClientError(res, error)) next(error);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const bodyMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A body is on its way when the request says so: a non-zero Content-Length, or a chunked transfer. */
const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

/**
 * REST inputs are JSON objects: the adapter would spread an array or a string
 * into numbered fields. A request without a body (`curl -X POST …/pause`) is
 * the empty object whatever its content type says, so the adapter, which
 * insists on a JSON content type, never answers it 415; a body that is there
 * must be JSON. And the adapter reads DELETE input from the query string
 * only, so a JSON body on DELETE (e.g. `{ confirmName }`) is merged under the query.
 */
export function normalizeRestBody(req: Request, res: Response, next: NextFunction): void {
  if (!bodyMethods.has(req.method)) return next();
  if (!hasBody(req)) {
    req.headers['content-type'] = 'application/json';
    req.body = {};
  } else if (!isJson(req)) {
    const given = req.headers['content-type'];
    return sendError(
      res,
      'UNSUPPORTED_MEDIA_TYPE',
      given ? `Request body must be JSON, not ${given}` : 'Request body must be JSON (Content-Type: application/json)',
    );
  }
  if (req.body !== undefined && !isPlainObject(req.body)) {
    return sendError(res, 'VALIDATION_FAILED', 'Request body must be a JSON object');
  }
  if (req.method === 'DELETE' && isPlainObject(req.body)) {
    Object.defineProperty(req, 'query', { value: { ...req.body, ...req.query }, writable: true });
  }
  next();
}
