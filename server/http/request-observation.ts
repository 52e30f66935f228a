import { randomUUID } from 'node:crypto';
import type { Express as ExpressApp, NextFunction, Request, Response } from 'express';
import type { Level } from 'pino';
import type { Logger } from '../logger.js';
import type { HttpMetrics } from '../observability/http-metrics.js';
import { restMatchOf } from './rest/rest-match.js';

declare global {
  namespace Express {
    interface Request {
      /** The request's id: a well-formed incoming `X-Request-Id`, else a new UUID; echoed in the response. */
      id: string;
      /** The service logger bound to this request (`req: { id, method, route }`). */
      log: Logger;
    }
  }
}

const requestIdPattern = /^[\w.-]{1,100}$/;

function requestIdOf(req: Request): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && requestIdPattern.test(incoming) ? incoming : randomUUID();
}

/**
 * A line per successful request costs every request its serialization and a
 * synchronous write: those are debug lines; refusals and failures stay visible.
 */
function levelOf(status: number, aborted: boolean): Level {
  if (status === 503) return 'warn';
  if (status >= 500) return 'error';
  return status >= 400 || aborted ? 'info' : 'debug';
}

export interface RequestObservation {
  logger: Logger;
  metrics: HttpMetrics;
  /** The bounded route label of a request the REST handler did not match (tRPC, docs, plain routes). */
  routeLabel(method: string, path: string): string;
  basePath: string;
}

const requestLogger = Symbol('requestLogger');
type ObservedRequest = Request & { [requestLogger]?: Logger };

/**
 * Every request's id, its logger, its log line and its metrics, with one
 * listener: when the response closes, the line (at the level its status
 * calls for, skipped when that level is off) and the counter and latency
 * histogram by route template. Logs name the route template, never the raw
 * path: a path can hold a secret (`/api/invitations/{token}`), and headers
 * and query strings are left out for the same reason.
 *
 * `req.log` is made on first use (a getter on the app's request prototype):
 * by then the route is known, and most successful requests never log.
 */
export function observeRequests(app: ExpressApp, { logger, metrics, routeLabel, basePath }: RequestObservation) {
  const routeOf = (req: Request, res: Response) => {
    const match = restMatchOf(res);
    return match ? `${basePath}${match.template}` : routeLabel(req.method, req.originalUrl.split('?')[0]!);
  };
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: ObservedRequest): Logger {
      this[requestLogger] ??= logger.child({
        req: { id: this.id, method: this.method, route: routeOf(this, this.res!) },
      });
      return this[requestLogger];
    },
    set(this: ObservedRequest, value: Logger) {
      this[requestLogger] = value;
    },
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    req.id = requestIdOf(req);
    res.setHeader('x-request-id', req.id);
    res.once('close', () => {
      const elapsedMs = performance.now() - started;
      const aborted = !res.writableFinished;
      metrics.observe({ method: req.method, route: routeOf(req, res), status: res.statusCode }, elapsedMs / 1000);
      const level = levelOf(res.statusCode, aborted);
      if (!logger.isLevelEnabled(level)) return;
      const message = aborted ? 'request aborted' : res.statusCode >= 500 ? 'request errored' : 'request completed';
      req.log[level]({ res: { statusCode: res.statusCode }, responseTime: Math.round(elapsedMs) }, message);
    });
    next();
  };
}
