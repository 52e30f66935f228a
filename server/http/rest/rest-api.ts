import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { AnyRouter } from '@trpc/server';
import { sendError } from '../error-body.js';
import { jsonBodyErrors, normalizeRestBody, parseJsonBody } from '../json-body.js';
import { rejectDeepBody } from '../json-depth.js';
import { createRestHandler, type RestHandlerOptions } from './rest-handler.js';
import { restMatchOf, type RestMatch } from './rest-match.js';
import { compileRestRoutes } from './rest-routes.js';

export interface RestApiOptions extends RestHandlerOptions {
  /**
   * The plain express GET routes under the API (`/prometheus`, the event
   * stream, OAuth redirects…): their paths are left to them, and another
   * method there is a 405 like on any known path.
   */
  plainGetRoutes: readonly string[];
  /** Where the API lives (`/api`) when mounted at the app's root: a request outside it goes on untouched. */
  basePath?: string;
}

/** Characters for which express's URL parsing (parseurl) leaves its fast path: such a request goes through express. */
const unusualPath = /[\t\n\f\r #\u00a0\ufeff]/;

const readsBody = (method: string) => method !== 'GET' && method !== 'HEAD';

export interface RestApi {
  /** Every REST request, as the app's first middleware. */
  middleware: RequestHandler;
  /** The procedure route a GET for `url` (a request target) asks for, or undefined (anything else: the middleware's). */
  getRouteOf(url: string): RestMatch | undefined;
  /** Answers a GET matched by `getRouteOf` (no body to read). */
  answerGet(req: Request, res: Response, match: RestMatch): void;
}

/**
 * The REST API of a router, mounted under the API base path before anything
 * else: a request for one of its routes is matched in one walk of the route
 * tree and answered without passing the app's other layers; a body is read
 * (1 MB, JSON, depth-checked, absent = `{}`) only for the methods that carry
 * one. A known path asked with another method is 405 with `Allow`, before
 * its body is read. Anything else goes on to the plain routes.
 */
export function restApi(router: AnyRouter, options: RestApiOptions): RestApi {
  const tree = compileRestRoutes(router, options.plainGetRoutes);
  const handle = createRestHandler(options);
  const body = express.Router();
  body.use(
    parseJsonBody,
    jsonBodyErrors,
    rejectDeepBody,
    normalizeRestBody,
    (req: Request, res: Response) => void handle(req, res, restMatchOf(res)!),
  );
  const base = options.basePath ?? '';
  // Mounted at the root with a base path, rather than under an express mount: one layer less per request.
  const within = (path: string) =>
    base === '' || (path.charCodeAt(base.length) === 47 && path.slice(0, base.length).toLowerCase() === base);
  const answerGet = (req: Request, res: Response, match: RestMatch) => {
    res.locals.restMatch = match;
    void handle(req, res, match);
  };
  const middleware = (req: Request, res: Response, next: NextFunction): void => {
    const path = req.path;
    if (!within(path)) return next();
    const match = tree.match(req.method, path.slice(base.length));
    if (match.kind === 'method') {
      const allow = match.allowed.join(', ');
      res.setHeader('Allow', allow);
      return sendError(
        res,
        'METHOD_NOT_ALLOWED',
        `${req.method} is not allowed on ${req.baseUrl}${base}${match.template}; allowed: ${allow}`,
      );
    }
    if (match.kind === 'none' || !match.value) return next();
    const restMatch: RestMatch = { route: match.value, template: match.template, params: match.params };
    if (!readsBody(req.method)) return answerGet(req, res, restMatch);
    res.locals.restMatch = restMatch;
    void body(req, res, next);
  };
  const getRouteOf = (url: string): RestMatch | undefined => {
    // Origin-form targets only (`/api/…?…`); anything unusual is left to express's own parsing.
    if (url.charCodeAt(0) !== 47) return undefined;
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    if (!within(path) || unusualPath.test(path)) return undefined;
    const match = tree.match('GET', path.slice(base.length));
    return match.kind === 'found' && match.value
      ? { route: match.value, template: match.template, params: match.params }
      : undefined;
  };
  return { middleware, getRouteOf, answerGet };
}
