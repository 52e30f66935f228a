import express, { type NextFunction, type Request, type Response } from 'express';
import packageJson from '../../package.json' with { type: 'json' };
import {
  appRouter,
  auditExportPath,
  auditExportRoute,
  oauthCallbackPath,
  oauthCallbackRoute,
  oauthLinkPath,
  oauthLinkRoute,
  oauthSignInPath,
  oauthSignInRoute,
  prometheusRoute,
  queueEventsPath,
  queueEventsRoute,
  taskHandlers,
} from '../../routers/_app.js';
import { createOAuthProviders, type OAuthTestEndpoints } from '../auth/oauth/create-providers.js';
import type { Services } from '../services.js';
import { createHttpContextFactory } from '../trpc/context.js';
import { describeError } from '../trpc/errors.js';
import { sendClientError, sendError } from './error-body.js';
import { jsonBodyErrors, maxBodyBytes, parseJsonBody } from './json-body.js';
import { apiDocs } from './api-docs.js';
import { docsSecurityHeaders } from './security-headers.js';
import { ingestPath, ingestProxy } from './ingest-proxy.js';
import { apiIndex } from './api-index.js';
import { readTrpcBody, rejectDeepBody, rejectDeepTrpcInput } from './json-depth.js';
import { apiBasePath, buildOpenApiDocument } from './openapi-document.js';
import { forDocsPage } from './openapi/document-mode.js';
import { successStatusOf } from './success-status.js';
import { restApi } from './rest/rest-api.js';
import { restFirst, type HttpApp } from './rest/rest-first.js';
import { lazyTrpcEndpoint } from './trpc-endpoint.js';
import type { ProcedureMeta } from '../trpc/init.js';
import { proceduresOf } from '../trpc/trpc-internals.js';
import { observeRequests } from './request-observation.js';
import { mcpEndpoint, mcpMethodNotAllowed, mcpPath } from '../mcp/mcp-endpoint.js';
import { createRouteLabeler, restOperations } from '../observability/route-labels.js';

function causeMessage(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause ?? error;
  return (cause instanceof Error ? cause.message : String(cause)).slice(0, 200);
}

function logProcedureError(services: Services) {
  return ({ error, path, req }: { error: unknown; path?: string | undefined; req: Request }) => {
    const description = describeError(error);
    const log = req.log ?? services.logger;
    // A 503 is an expected state (database or store away), logged without a stack: under a stall there are thousands.
    if (description.httpStatus === 503)
      log.warn({ procedure: path, code: description.code, reason: causeMessage(error) }, description.message);
    else if (description.httpStatus >= 500)
      log.error({ err: error, procedure: path, code: description.code }, description.message);
    else log.debug({ procedure: path, code: description.code }, description.message);
  };
}

export interface AppOptions {
  /** How often an idle SSE stream gets a comment line, so proxies keep it open. */
  sseHeartbeatMs?: number;
  /** How long `/ingest` waits for the analytics upstream (10 s unless a test shortens it). */
  ingestTimeoutMs?: number;
  /** Tests only: loopback stand-ins for the identity providers' endpoints, plain-http issuers. */
  oauth?: OAuthTestEndpoints;
  /** Tests and the bench only: the REST API served by another implementation (the stock adapter they compare ours with). */
  restApi?: typeof restApi;
}

/** Builds the HTTP app without listening, so tests can boot it on port 0 (server/http/rest/rest-first.ts). */
export function createApp(services: Services, options: AppOptions = {}): HttpApp {
  services.tasks.useHandlers(taskHandlers);
  const app = express();
  // Built on its first request: most processes never serve it, and it costs memory and startup time.
  let openApiDocument: ReturnType<typeof buildOpenApiDocument> | undefined;
  // Built at the first request, once the port is bound: the document names the address clients use.
  const documentMode = () => ({
    authless: services.config.authless,
    appBaseUrl: services.config.auth.appBaseUrl,
    localUrl: services.auth.appBaseUrl,
  });
  const document = () => (openApiDocument ??= buildOpenApiDocument(packageJson.version, documentMode()));
  // The REST paths from the procedures' meta: the same ones the document lists, without building it.
  const restRoutes = restOperations(appRouter);
  const routeLabel = createRouteLabeler({
    basePath: apiBasePath,
    restRoutes,
    procedures: Object.keys(proceduresOf(appRouter)),
    fixedRoutes: ['/openapi.json', '/docs', '/prometheus', auditExportPath, mcpPath],
    expressRoutes: [queueEventsPath, oauthSignInPath, oauthCallbackPath, oauthLinkPath],
  });
  app.disable('x-powered-by');
  app.set('trust proxy', services.config.http.trustProxyHops);
  const observe = observeRequests(app, {
    logger: services.logger,
    metrics: services.httpMetrics,
    routeLabel,
    basePath: apiBasePath,
  });
  app.use(observe);

  const onError = logProcedureError(services);
  // REST first: its routes answer without passing the layers below (see rest-api.ts).
  const rest = (options.restApi ?? restApi)(appRouter, {
    basePath: apiBasePath,
    plainGetRoutes: [
      '/openapi.json',
      '/docs',
      '/prometheus',
      queueEventsPath,
      oauthSignInPath,
      oauthCallbackPath,
      oauthLinkPath,
      auditExportPath,
    ],
    createContext: createHttpContextFactory(services, 'rest'),
    onError,
    successStatus: (route, data) => successStatusOf(route.meta as ProcedureMeta, data),
    maxResponseBytes: services.config.http.maxResponseBytes,
  });
  app.use(rest.middleware);

  app.use(
    `${apiBasePath}/trpc`,
    readTrpcBody,
    jsonBodyErrors,
    rejectDeepTrpcInput,
    lazyTrpcEndpoint({
      router: appRouter,
      createContext: createHttpContextFactory(services, 'trpc'),
      onError,
      maxBodySize: maxBodyBytes,
    }),
  );

  // The Model Context Protocol for agents: the procedures as tools, under the same middleware (server/mcp/).
  app.post(
    `${apiBasePath}${mcpPath}`,
    parseJsonBody,
    jsonBodyErrors,
    rejectDeepBody,
    mcpEndpoint({ router: appRouter, services, version: packageJson.version, onError }),
  );
  app.all(`${apiBasePath}${mcpPath}`, mcpMethodNotAllowed);

  app.get(['/', apiBasePath, `${apiBasePath}/`], apiIndex(apiBasePath, packageJson.version));
  app.get(`${apiBasePath}/openapi.json`, (_req, res) => void res.json(document()));
  app.use(
    `${apiBasePath}/docs`,
    docsSecurityHeaders,
    apiDocs(() => forDocsPage(document(), apiBasePath)),
  );

  app.get(
    `${apiBasePath}${queueEventsPath}`,
    queueEventsRoute(services, { heartbeatMs: options.sseHeartbeatMs ?? 15_000 }),
  );
  // Text, not JSON: a plain route.
  app.get(`${apiBasePath}/prometheus`, prometheusRoute(services));
  // Redirects, not JSON: the browser navigates to these.
  const oauthProviders = createOAuthProviders(
    services.config.auth.oauthProviders,
    options.oauth,
    services.config.environment,
  );
  app.get(`${apiBasePath}${oauthSignInPath}`, oauthSignInRoute(services, oauthProviders));
  app.get(`${apiBasePath}${oauthCallbackPath}`, oauthCallbackRoute(services, oauthProviders));
  app.get(`${apiBasePath}${oauthLinkPath}`, oauthLinkRoute(services, oauthProviders));
  // NDJSON, streamed: also a plain route.
  app.get(`${apiBasePath}${auditExportPath}`, auditExportRoute(services));

  const { analytics } = services.config;
  if (analytics.key) {
    app.use(
      ingestPath,
      ingestProxy(services, { upstreamUrl: analytics.upstreamUrl, timeoutMs: options.ingestTimeoutMs }),
    );
  }

  app.use((req, res) => sendError(res, 'NOT_FOUND', `No route matches ${req.method} ${req.path}`));
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (!res.headersSent && sendClientError(res, error)) return;
    req.log.error({ err: error }, 'unhandled error');
    if (!res.headersSent) sendError(res, 'INTERNAL_ERROR', 'Internal error; the service log has the details');
  });
  return restFirst(app, observe, rest);
}
