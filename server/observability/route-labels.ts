import type { AnyRouter } from '@trpc/server';
import { partsOf, proceduresOf } from '../trpc/trpc-internals.js';

interface RouteTemplate {
  method: string;
  template: string;
  segments: string[];
  literals: number;
}

export interface RouteLabelSources {
  /** Mount path of the API, e.g. `/api`. */
  basePath: string;
  /** Every REST operation (`GET /c/{connectionId}/workers`): see restOperations. */
  restRoutes: Array<{ method: string; path: string }>;
  /** Every tRPC procedure path (`system.health`, ...). */
  procedures: string[];
  /** Plain express routes under the base path, matched with everything below them (`/docs`, `/prometheus`). */
  fixedRoutes: string[];
  /** Plain express GET routes with `:params` (`/c/:connectionId/queues/:queueName/events`). */
  expressRoutes?: string[];
}

/**
 * Maps a request to a bounded route label: the REST template it matched
 * (`/api/c/{connectionId}/workers`), the tRPC procedure, a fixed route, or
 * `unmatched`. Raw paths would carry queue names and keys into the metrics.
 */
export function createRouteLabeler({
  basePath,
  restRoutes,
  procedures,
  fixedRoutes,
  expressRoutes = [],
}: RouteLabelSources) {
  const templates = [
    ...restRoutes.map((route) => template(route.method.toUpperCase(), route.path)),
    ...expressRoutes.map((route) => template('GET', route.replace(/:(\w+)/g, '{$1}'))),
  ].sort((a, b) => b.literals - a.literals);
  const knownProcedures = new Set(procedures);
  const trpcPath = `${basePath}/trpc/`;
  return (method: string, path: string): string => {
    if (path.startsWith(trpcPath)) {
      const names = path.slice(trpcPath.length).split(',');
      if (names.length > 1) return `${basePath}/trpc/(batch)`;
      return knownProcedures.has(names[0]!) ? `${basePath}/trpc/${names[0]}` : 'unmatched';
    }
    if (!path.startsWith(`${basePath}/`)) return 'unmatched';
    const local = path.slice(basePath.length);
    const fixed = fixedRoutes.find((route) => local === route || local.startsWith(`${route}/`));
    if (fixed) return `${basePath}${fixed}`;
    const segments = local.split('/');
    const match = templates.find((route) => route.method === method && matches(route.segments, segments));
    return match ? `${basePath}${match.template}` : 'unmatched';
  };
}

function template(method: string, path: string): RouteTemplate {
  const segments = path.split('/');
  return { method, template: path, segments, literals: segments.filter((segment) => !segment.startsWith('{')).length };
}

/**
 * The REST operations of a router, read from its procedures' OpenAPI meta:
 * the same paths the OpenAPI document lists, without building the document
 * (built on its first request only). Sorted by the labeler so that literal
 * segments win (/store-keys/search before /store-keys/{key}).
 */
export function restOperations(router: AnyRouter): Array<{ method: string; path: string }> {
  return Object.values(proceduresOf(router)).flatMap((procedure) => {
    const openapi = partsOf(procedure).meta?.openapi;
    return openapi ? [{ method: openapi.method, path: openapi.path }] : [];
  });
}

function matches(template: string[], actual: string[]): boolean {
  if (template.length !== actual.length) return false;
  return template.every((segment, index) =>
    segment.startsWith('{') ? actual[index]!.length > 0 : segment === actual[index],
  );
}
