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

/**
 * REST inputs are JSON objects: the adapter would spread an array or a string
 * into numbered fields. And it reads DELETE input from the query string only,
 * so a JSON body on DELETE (e.g. `{ confirmName }`) is merged under the query.
 */
export function normalizeRestBody(req: Request, res: Response, next: NextFunction): void {
  if (req.body !== undefined && !isPlainObject(req.body)) {
    return sendError(res, 'VALIDATION_FAILED', 'Request body must be a JSON object');
  }
  if (req.method === 'DELETE' && isPlainObject(req.body)) {
    Object.defineProperty(req, 'query', { value: { ...req.body, ...req.query }, writable: true });
  }
  next();
}
