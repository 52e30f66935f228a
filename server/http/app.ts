import { randomUUID } from 'node:crypto';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { pinoHttp } from 'pino-http';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { createOpenApiExpressMiddleware } from 'trpc-to-openapi';
import packageJson from '../../package.json' with { type: 'json' };
import { appRouter } from '../../routers/_app.js';
import type { Services } from '../services.js';
import { createHttpContextFactory } from '../trpc/context.js';
import { describeError } from '../trpc/errors.js';
import { rewriteErrorBodies, sendClientError, sendError } from './error-body.js';
import { jsonBodyErrors, maxBodyBytes, normalizeRestBody, parseJsonBody } from './json-body.js';
import { apiDocs } from './api-docs.js';
import { apiBasePath, buildOpenApiDocument } from './openapi-document.js';
import { queueEventsPath, queueEventsRoute } from './queue-events-route.js';
import { successStatusResponseMeta } from './success-status.js';
import { prometheusRoute } from './prometheus-route.js';
import { httpMetricsMiddleware } from '../observability/http-metrics-middleware.js';
import { createRouteLabeler } from '../observability/route-labels.js';

const requestIdPattern = /^[\w.-]{1,100}$/;

function requestId(req: Request, res: Response): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && requestIdPattern.test(incoming) ? incoming : randomUUID();
  res.setHeader('x-request-id', id);
  return id;
}

function logProcedureError(services: Services) {
  return ({ error, path, req }: { error: unknown; path?: string | undefined; req: Request }) => {
    const description = describeError(error);
    const log = req.log ?? services.logger;
    if (description.httpStatus >= 500) log.error({ err: error, procedure: path, code: description.code }, description.message);
    else log.debug({ procedure: path, code: description.code }, description.message);
  };
}

export interface AppOptions {
  /** How often an idle SSE stream gets a comment line, so proxies keep it open. */
  sseHeartbeatMs?: number;
}

/** Builds the HTTP app without listening, so tests can boot it on port 0. */
export function createApp(services: Services, options: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', services.config.http.trustProxyHops);
  app.use(
    pinoHttp({
      logger: services.logger,
      genReqId: requestId,
      customLogLevel: (_req: unknown, res: { statusCode: number }, err: unknown) => (err || res.statusCode >= 500 ? 'error' : 'info'),
      // Method and path only: headers carry cookies and tokens, query strings can carry anything.
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );

  const openApiDocument = buildOpenApiDocument(packageJson.version);
  app.use(httpMetricsMiddleware(services.httpMetrics, createRouteLabeler({
    basePath: apiBasePath,
    openApi: openApiDocument,
    procedures: Object.keys(appRouter._def.procedures),
    fixedRoutes: ['/openapi.json', '/docs', '/prometheus'],
    expressRoutes: [queueEventsPath],
  })));

  const onError = logProcedureError(services);

  // The tRPC endpoint and the docs come first: the REST adapter never calls next().
  app.use(
    `${apiBasePath}/trpc`,
    createExpressMiddleware({ router: appRouter, createContext: createHttpContextFactory(services, 'trpc'), onError, maxBodySize: maxBodyBytes }),
  );

  app.get(`${apiBasePath}/openapi.json`, (_req, res) => void res.json(openApiDocument));
  app.use(`${apiBasePath}/docs`, apiDocs(openApiDocument));

  app.get(`${apiBasePath}${queueEventsPath}`, queueEventsRoute(services, { heartbeatMs: options.sseHeartbeatMs ?? 15_000 }));
  // Text, not JSON: a plain route before the REST adapter (which never calls next()).
  app.get(`${apiBasePath}/prometheus`, prometheusRoute(services));

  const restHandler = createOpenApiExpressMiddleware({
    router: appRouter,
    createContext: createHttpContextFactory(services, 'rest'),
    responseMeta: successStatusResponseMeta(appRouter),
    onError,
    maxBodySize: maxBodyBytes,
  });
  app.use(apiBasePath, parseJsonBody, jsonBodyErrors, normalizeRestBody, (req: Request, res: Response) => {
    rewriteErrorBodies(res, `${req.method} ${req.originalUrl.split('?')[0]}`);
    return restHandler(req, res);
  });

  app.use((req, res) => sendError(res, 'NOT_FOUND', `No route matches ${req.method} ${req.path}`));
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (!res.headersSent && sendClientError(res, error)) return;
    req.log.error({ err: error }, 'unhandled error');
    if (!res.headersSent) sendError(res, 'INTERNAL_ERROR', 'Internal error; the service log has the details');
  });
  return app;
}
