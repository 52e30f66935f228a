import { describe, expect, it } from 'vitest';
import { createRouteLabeler, restOperations } from '../../server/observability/route-labels.js';
import { buildOpenApiDocument } from '../../server/http/openapi-document.js';
import { mcpPath } from '../../server/mcp/mcp-endpoint.js';
import {
  appRouter,
  auditExportPath,
  oauthCallbackPath,
  oauthLinkPath,
  oauthSignInPath,
  queueEventsPath,
} from '../../routers/_app.js';
import { proceduresOf } from '../../server/trpc/trpc-internals.js';

describe('route labels', () => {
  it('know every procedure the OpenAPI document lists, without building it', () => {
    // The plain express routes (Prometheus, event stream, OAuth redirects, audit export, MCP) are documented too, but labelled from expressRoutes/fixedRoutes.
    const plainRoutes = new Set(
      ['/prometheus', mcpPath, queueEventsPath, oauthSignInPath, oauthCallbackPath, oauthLinkPath, auditExportPath].map(
        (route) => route.replace(/:(\w+)/g, '{$1}'),
      ),
    );
    const documented = Object.entries(buildOpenApiDocument('test').paths ?? {})
      .filter(([path]) => !plainRoutes.has(path))
      .flatMap(([path, operations]) =>
        Object.keys(operations ?? {}).map((method) => `${method.toUpperCase()} ${path}`),
      );
    expect(
      restOperations(appRouter)
        .map((route) => `${route.method} ${route.path}`)
        .sort(),
    ).toEqual(documented.sort());
  });

  const label = createRouteLabeler({
    basePath: '/api',
    restRoutes: restOperations(appRouter),
    procedures: Object.keys(proceduresOf(appRouter)),
    fixedRoutes: ['/openapi.json', '/docs', '/prometheus'],
    expressRoutes: ['/c/:connectionId/queues/:queueName/events'],
  });

  it.each([
    ['GET', '/api/c/main/store-keys/search', '/api/c/{connectionId}/store-keys/search'],
    ['GET', '/api/c/main/store-keys/value/bull%3Aa%2Fb', '/api/c/{connectionId}/store-keys/value/{key}'],
    ['DELETE', '/api/c/main/store-keys/some%20key', '/api/c/{connectionId}/store-keys/{key}'],
    ['GET', '/api/c/x/queues/my%20queue/metrics', '/api/c/{connectionId}/queues/{queueName}/metrics'],
    ['GET', '/api/health', '/api/health'],
    ['GET', '/api/c/main/queues/a%2Fb/events', '/api/c/{connectionId}/queues/{queueName}/events'],
    ['GET', '/api/docs/swagger-ui.css', '/api/docs'],
    ['POST', '/api/trpc/workers.list', '/api/trpc/workers.list'],
    ['GET', '/api/trpc/system.health,system.mode', '/api/trpc/(batch)'],
    ['GET', '/api/trpc/no.such.thing', 'unmatched'],
    ['GET', '/api/c/x/queues/q/nonsense', 'unmatched'],
    ['GET', '/elsewhere', 'unmatched'],
  ])('%s %s → %s', (method, path, expected) => {
    expect(label(method, path)).toBe(expected);
  });
});
