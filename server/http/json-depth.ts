import type { IncomingMessage } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { sendError } from './error-body.js';
import { maxBodyBytes } from './json-body.js';

/**
 * JSON nested deeper than this is refused with 400 BODY_TOO_DEEP before
 * anything walks it recursively (validation, stringifying job data, the
 * store client): 10,000 levels overflowed the stack there. Both checks below
 * are loops, never recursion.
 */
export const maxJsonDepth = 64;

/** Depth of JSON text, counted over brackets outside strings; stops as soon as it passes `max`. */
export function textDepthExceeds(text: string, max = maxJsonDepth): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c) index++;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > max) return true;
    } else if (char === 0x5d || char === 0x7d) depth--;
  }
  return false;
}

/** Depth of a parsed value (objects and arrays count one level each). */
export function valueDepthExceeds(value: unknown, max = maxJsonDepth): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(current))
      if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
  }
  return false;
}

const tooDeep = (res: Response) =>
  sendError(res, 'BODY_TOO_DEEP', `Request JSON is nested deeper than ${maxJsonDepth} levels`);

/** REST: after the JSON body parser, before the adapter validates or copies anything. */
export function rejectDeepBody(req: Request, res: Response, next: NextFunction): void {
  if (valueDepthExceeds(req.body)) return tooDeep(res);
  next();
}

const isJson = (req: IncomingMessage) => /^application\/([\w.+-]+\+)?json\b/i.test(req.headers['content-type'] ?? '');

/** tRPC: the raw body as text (tRPC parses it itself when `req.body` is a string). */
export const readTrpcBody = express.text({ limit: maxBodyBytes, type: isJson });

/** tRPC: the body text and a query's `input` parameter, checked before tRPC parses either. */
export function rejectDeepTrpcInput(req: Request, res: Response, next: NextFunction): void {
  const input = req.query.input;
  if (typeof req.body === 'string' && textDepthExceeds(req.body)) return tooDeep(res);
  if (typeof input === 'string' && textDepthExceeds(input)) return tooDeep(res);
  next();
}
