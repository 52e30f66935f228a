import { initTRPC, TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ProcedureMeta } from '../../server/trpc/init.js';
import {
  callProcedure,
  middlewareFunctionsOf,
  partsOf,
  procedureMetaOf,
  proceduresOf,
  type ProcedureCall,
} from '../../server/trpc/trpc-internals.js';

/**
 * server/trpc/trpc-internals.ts is the one file that reads tRPC's private
 * fields and runs its middleware protocol without tRPC's caller. Each test
 * here holds one of those reads to what the installed tRPC does, on a router
 * of its own: a tRPC upgrade that moves a field or changes how its caller
 * runs middlewares fails here, naming the function to fix.
 */
type Ctx = { user?: string; seen: string[] };
const t = initTRPC.context<Ctx>().meta<ProcedureMeta>().create();

/** Records what tRPC hands a middleware: its option keys and the context. */
const recorded: Array<{ keys: string[]; user?: string }> = [];
const record = t.middleware(async (options) => {
  recorded.push({ keys: Object.keys(options).sort(), user: options.ctx.user });
  return options.next({ ctx: { user: 'ada' } });
});
const pingMeta: ProcedureMeta = { openapi: { method: 'GET', path: '/ping' }, permission: 'queues.read' };

const router = t.router({
  ping: t.procedure
    .meta(pingMeta)
    .use(record)
    .input(z.strictObject({ n: z.number() }))
    .query(({ input, ctx }) => ({ n: input.n, user: ctx.user })),
  nested: t.router({ act: t.procedure.mutation(() => 'done') }),
  conflict: t.procedure.use(record).query(() => {
    throw new TRPCError({ code: 'CONFLICT', message: 'taken' });
  }),
});

const call = (path: string, type: 'query' | 'mutation', input: unknown): ProcedureCall => ({
  ctx: { seen: [] },
  type,
  path,
  getRawInput: async () => input,
  signal: undefined,
  batchIndex: 0,
});

/** The outcome of a call, whichever way it went. */
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    (data) => ({ data }),
    (error: TRPCError) => ({ code: error.code, message: error.message }),
  );

describe('tRPC internals (server/trpc/trpc-internals.ts)', () => {
  it('proceduresOf: every procedure by its dotted path (router._def.procedures)', () => {
    expect(Object.keys(proceduresOf(router)).sort()).toEqual(['conflict', 'nested.act', 'ping']);
  });

  it('partsOf: type, meta, input parsers and middlewares (procedure._def)', () => {
    const ping = partsOf(proceduresOf(router).ping!);
    expect(ping.type).toBe('query');
    expect(ping.meta).toEqual(pingMeta);
    expect(ping.inputs).toHaveLength(1);
    expect(ping.middlewares.length).toBeGreaterThanOrEqual(2);
    expect(ping.middlewares.every((middleware) => typeof middleware === 'function')).toBe(true);
    const act = partsOf(proceduresOf(router)['nested.act']!);
    expect([act.type, act.meta, act.inputs]).toEqual(['mutation', undefined, []]);
  });

  it('procedureMetaOf: the meta by path, undefined for none', () => {
    expect(procedureMetaOf(router, 'ping')).toEqual(pingMeta);
    expect(procedureMetaOf(router, 'nested.act')).toBeUndefined();
    expect(procedureMetaOf(router, 'missing')).toBeUndefined();
  });

  it('middlewareFunctionsOf: the function of a built middleware (_middlewares), callable as a step', async () => {
    const [step] = middlewareFunctionsOf(record) as Array<(options: unknown) => Promise<unknown>>;
    expect(typeof step).toBe('function');
    const next = async (options: { ctx: object }) => ({ ok: true, data: options.ctx });
    const result = await step!({ ...call('x', 'query', undefined), meta: undefined, next });
    expect(result).toEqual({ ok: true, data: { user: 'ada' } });
  });

  it('callProcedure answers as tRPC’s caller: data, a context added by next(), input errors, thrown errors', async () => {
    const caller = t.createCallerFactory(router)({ seen: [] });
    const ping = partsOf(proceduresOf(router).ping!);
    const conflict = partsOf(proceduresOf(router).conflict!);
    expect(await outcome(callProcedure(ping, call('ping', 'query', { n: 1 })))).toEqual(
      await outcome(caller.ping({ n: 1 })),
    );
    expect(await outcome(callProcedure(ping, call('ping', 'query', { n: 1 })))).toEqual({
      data: { n: 1, user: 'ada' },
    });
    const invalid = await outcome(callProcedure(ping, call('ping', 'query', { n: 'one' })));
    expect(invalid).toEqual(await outcome(caller.ping({ n: 'one' } as never)));
    expect(invalid).toMatchObject({ code: 'BAD_REQUEST' });
    const thrown = await outcome(callProcedure(conflict, call('conflict', 'query', undefined)));
    expect(thrown).toEqual({ code: 'CONFLICT', message: 'taken' });
  });

  it('callProcedure hands a middleware the options tRPC’s caller hands it', async () => {
    recorded.length = 0;
    await t.createCallerFactory(router)({ seen: [] }).ping({ n: 2 });
    await callProcedure(partsOf(proceduresOf(router).ping!), call('ping', 'query', { n: 2 }));
    expect(recorded).toHaveLength(2);
    expect(recorded[1]).toEqual(recorded[0]);
  });
});
