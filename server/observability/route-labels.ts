import type { OpenAPIObject } from 'trpc-to-openapi';

interface RouteTemplate {
  method: string;
  template: string;
  segments: string[];
  literals: number;
}

export interface RouteLabelSources {
  /** Mount path of the API, e.g. `/api`. */
  basePath: string;
  openApi: OpenAPIObject;
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
export function createRouteLabeler({ basePath, openApi, procedures, fixedRoutes, expressRoutes = [] }: RouteLabelSources) {
  const templates = [...restTemplates(openApi), ...expressRoutes.map((route) => template('GET', route.replace(/:(\w+)/g, '{$1}')))].sort(
    (a, b) => b.literals - a.literals,
  );
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

/** Every REST operation; sorted by the caller so that literal segments win (/store-keys/search before /store-keys/{key}). */
function restTemplates(openApi: OpenAPIObject): RouteTemplate[] {
  return Object.entries(openApi.paths ?? {}).flatMap(([path, operations]) =>
    Object.keys(operations ?? {}).map((method) => template(method.toUpperCase(), path)),
  );
}

function matches(template: string[], actual: string[]): boolean {
  if (template.length !== actual.length) return false;
  return template.every((segment, index) => (segment.startsWith('{') ? actual[index]!.length > 0 : segment === actual[index]));
}
