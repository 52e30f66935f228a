import {
  getTRPCErrorFromUnknown,
  type AnyProcedure,
  type AnyRouter,
  type TRPCError,
  type TRPCProcedureType,
} from '@trpc/server';
import type { ProcedureMeta } from './init.js';

/**
 * The one file that depends on tRPC's private parts: the `_def` of routers
 * and procedures, the `_middlewares` of a built middleware, and the protocol
 * by which tRPC's caller runs a procedure's middlewares. tRPC v11 has no
 * public API to list a router's procedures with their meta, nor to run a
 * procedure without its caller (which the REST and MCP hot paths avoid, see
 * callProcedure). test/contract/trpc-internals.test.ts checks every function
 * here against a router of its own, so an upgrade that changes any of these
 * fails there, by name. (trpc-to-openapi reads the same fields itself.)
 */

/** What a middleware's `next()` resolves to. */
export type MiddlewareResult = { ok: true; data: unknown } | { ok: false; error: TRPCError };

/** What tRPC's caller passes a procedure's middlewares (and what callProcedure takes). */
export interface ProcedureCall {
  ctx: object;
  type: TRPCProcedureType;
  path: string;
  input?: unknown;
  getRawInput(): Promise<unknown>;
  signal: undefined;
  batchIndex: number;
}

type NextOptions = { ctx?: object; input?: unknown; getRawInput?: () => Promise<unknown> };
type MiddlewareOptions = ProcedureCall & { meta: unknown; next(options?: NextOptions): Promise<MiddlewareResult> };
type MiddlewareFunction = (options: MiddlewareOptions) => Promise<MiddlewareResult>;

/** What a procedure is made of: kind, meta, input parsers, the middlewares a call runs (input parsing and resolver last). */
export interface ProcedureParts {
  type: TRPCProcedureType;
  meta: ProcedureMeta | undefined;
  inputs: readonly unknown[];
  middlewares: readonly MiddlewareFunction[];
}

/** Every procedure of a router by its dotted path (`jobs.get`), nested routers flattened. */
export function proceduresOf(router: AnyRouter): Record<string, AnyProcedure> {
  return router._def.procedures as Record<string, AnyProcedure>;
}

export function partsOf(procedure: AnyProcedure): ProcedureParts {
  const def = (procedure as unknown as { _def: ProcedureParts })._def;
  return { type: def.type, meta: def.meta, inputs: def.inputs, middlewares: def.middlewares };
}

/** The meta of the procedure at `path`: undefined when there is no such procedure, or it declares none. */
export function procedureMetaOf(router: AnyRouter, path: string): ProcedureMeta | undefined {
  const procedure = proceduresOf(router)[path];
  return procedure ? partsOf(procedure).meta : undefined;
}

/** The functions of a middleware built with `t.middleware()`. */
export function middlewareFunctionsOf(built: object): readonly unknown[] {
  return (built as { _middlewares: readonly unknown[] })._middlewares;
}

/**
 * Calls a procedure as tRPC's own caller does (its middlewares in order:
 * the shared steps, input and output validation, the resolver), with native
 * object spreads where tRPC's build uses a transpiled helper that copies key
 * by key: per REST request that was ~15 copies of the call's options, and
 * the caller's proxy on top. Same contract: a middleware that throws becomes
 * a failed result for the one before it; a failed call throws its error.
 */
export async function callProcedure(
  parts: Pick<ProcedureParts, 'meta' | 'middlewares'>,
  options: ProcedureCall,
): Promise<unknown> {
  const { middlewares, meta } = parts;
  const run = async (index: number, call: ProcedureCall): Promise<MiddlewareResult> => {
    try {
      return await middlewares[index]!({
        ...call,
        meta,
        input: call.input,
        next: (next) =>
          run(index + 1, {
            ...call,
            ctx: next?.ctx ? { ...call.ctx, ...next.ctx } : call.ctx,
            input: next && 'input' in next ? next.input : call.input,
            getRawInput: next?.getRawInput ?? call.getRawInput,
          }),
      });
    } catch (cause) {
      return { ok: false, error: getTRPCErrorFromUnknown(cause) };
    }
  };
  const result = await run(0, options);
  if (!result.ok) throw result.error;
  return result.data;
}
