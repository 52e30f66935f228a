import type { NextFunction, Request, Response } from 'express';
import { sendError } from './error-body.js';

/** A REST operation: `GET` and `/c/{connectionId}/workers` (see restOperations). */
interface RestRoute {
  method: string;
  path: string;
}

interface PathMethods {
  segments: string[];
  methods: Set<string>;
}

const isParameter = (segment: string) => segment.startsWith('{');

function matches(template: string[], actual: string[]): boolean {
  return template.length === actual.length && template.every((segment, index) => (isParameter(segment) ? actual[index]!.length > 0 : segment === actual[index]));
}

/** Negative when `a` is the more specific: at the first segment where they differ, a literal beats a parameter. */
function bySpecificity(a: PathMethods, b: PathMethods): number {
  if (a.segments.length !== b.segments.length) return a.segments.length - b.segments.length;
  for (let index = 0; index < a.segments.length; index++) {
    const literalA = !isParameter(a.segments[index]!);
    const literalB = !isParameter(b.segments[index]!);
    if (literalA !== literalB) return literalA ? -1 : 1;
  }
  return 0;
}

function pathMethods(restRoutes: RestRoute[], extraGetRoutes: string[]): PathMethods[] {
  const byPath = new Map<string, Set<string>>();
  for (const { method, path } of restRoutes) byPath.set(path, new Set([...(byPath.get(path) ?? []), method.toUpperCase()]));
  for (const route of extraGetRoutes) {
    const path = route.replace(/:(\w+)/g, '{$1}');
    byPath.set(path, new Set([...(byPath.get(path) ?? []), 'GET']));
  }
  return [...byPath].map(([path, methods]) => ({ segments: path.split('/'), methods })).sort(bySpecificity);
}

/**
 * Answers a known path asked with another method 405 with `Allow`, instead
 * of the adapter's 404, and makes a literal segment win over a parameter:
 * `GET …/jobs/retry` is the POST-only retry route, not job "retry". Paths
 * come from the procedures' OpenAPI meta (the REST routes, as the document lists them) plus the plain express
 * GET routes under the API (`/prometheus`, the event stream, …).
 */
export function rejectOtherMethods(restRoutes: RestRoute[], extraGetRoutes: string[]) {
  const paths = pathMethods(restRoutes, extraGetRoutes);
  return (req: Request, res: Response, next: NextFunction): void => {
    const segments = req.path.replace(/(.)\/+$/, '$1').split('/');
    const route = paths.find((candidate) => matches(candidate.segments, segments));
    if (!route) return next();
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (route.methods.has(method)) return next();
    const allow = [...route.methods].sort().join(', ');
    res.setHeader('Allow', allow);
    sendError(res, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${req.baseUrl}${route.segments.join('/')}; allowed: ${allow}`);
  };
}
