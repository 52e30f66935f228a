import type { AnyProcedure, AnyRouter, TRPCProcedureType } from '@trpc/server';
import {
  coerceSchema,
  forEachOpenApiProcedure,
  getInputOutputParsers,
  instanceofZodTypeLikeVoid,
  instanceofZodTypeObject,
  instanceofZodTypeOptional,
  unwrapZodType,
  zodSupportsCoerce,
  type OpenApiMeta,
  type OpenApiProcedureRecord,
} from 'trpc-to-openapi';
import { ZodArray } from 'zod/v4';
import { callProcedure, partsOf, proceduresOf } from '../../trpc/trpc-internals.js';
import { RouteTree } from './route-tree.js';

/** What a REST request needs of its procedure, worked out once at startup instead of per request. */
export interface RestRoute {
  /** The procedure's path in the router (`jobs.get`). */
  path: string;
  type: TRPCProcedureType;
  meta: OpenApiMeta;
  call(options: {
    ctx: object;
    getRawInput: () => Promise<unknown>;
    path: string;
    type: TRPCProcedureType;
    signal: undefined;
    batchIndex: number;
  }): Promise<unknown>;
  /** The input is void: the procedure takes none. */
  takesNoInput: boolean;
  /** Query parameters whose schema is an array: a single `?status=failed` becomes `['failed']`. */
  arrayQueryKeys: ReadonlySet<string>;
}

function arrayKeysOf(schema: unknown): Set<string> {
  const keys = new Set<string>();
  if (!instanceofZodTypeObject(schema as never)) return keys;
  for (const [key, shape] of Object.entries((schema as { shape: Record<string, unknown> }).shape)) {
    const inner = instanceofZodTypeOptional(shape as never) ? (shape as { unwrap(): unknown }).unwrap() : shape;
    if (inner instanceof ZodArray) keys.add(key);
  }
  return keys;
}

/**
 * The REST routes of a router, from the OpenAPI meta trpc-to-openapi reads
 * (`meta.openapi`: method and path), with trpc-to-openapi's own input rules:
 * query strings coerced to numbers and booleans where the schema says so
 * (set once on the schemas, as its adapter does on each request), array
 * parameters from single values, path parameters over body and query.
 * `plainGetRoutes` are the plain express GET routes under the API
 * (`/prometheus`, `/c/:connectionId/…/events`): known paths, so another
 * method on them is a 405.
 */
export function compileRestRoutes(
  router: AnyRouter,
  plainGetRoutes: readonly string[] = [],
): RouteTree<RestRoute | null> {
  const tree = new RouteTree<RestRoute | null>();
  // Plain express routes (matched before the REST handler) take part in 405s only.
  for (const route of plainGetRoutes) tree.add('GET', route.replace(/:(\w+)/g, '{$1}'), null);
  forEachOpenApiProcedure(
    proceduresOf(router) as unknown as OpenApiProcedureRecord,
    ({ path, type, procedure, meta }) => {
      if (type === 'subscription') return;
      const inputSchema = unwrapZodType(getInputOutputParsers(procedure).inputParser, true);
      if (zodSupportsCoerce && instanceofZodTypeObject(inputSchema)) coerceSchema(inputSchema);
      const parts = partsOf(procedure as unknown as AnyProcedure);
      tree.add(meta.openapi!.method, meta.openapi!.path, {
        path,
        type,
        meta: meta as OpenApiMeta,
        call: (options) => callProcedure(parts, options),
        takesNoInput: instanceofZodTypeLikeVoid(inputSchema),
        arrayQueryKeys: arrayKeysOf(inputSchema),
      });
    },
  );
  return tree;
}
