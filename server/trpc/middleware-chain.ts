import { getTRPCErrorFromUnknown, type TRPCError, type TRPCProcedureType } from '@trpc/server';
import type { Context } from './context.js';
import { middleware, type ProcedureMeta } from './init.js';
import { middlewareFunctionsOf } from './trpc-internals.js';

/** What a step's `next()` resolves to: the rest of the call's outcome, as tRPC's middleware results. */
export type StepResult = { ok: true; data: unknown } | { ok: false; error: TRPCError };

export interface StepCall<C = Context> {
  ctx: C;
  type: TRPCProcedureType;
  path: string;
  meta: ProcedureMeta | undefined;
  getRawInput(): Promise<unknown>;
  /** Runs the rest of the call; `ctx` adds to the context of the steps after, `getRawInput` replaces the raw input. */
  next(options?: { ctx?: object; getRawInput?: () => Promise<unknown> }): Promise<StepResult>;
}

/** A shared concern (errors, auth, rate limit, audit…) as one step of a procedure's chain. */
export type Step<C = Context> = (call: StepCall<C>) => Promise<StepResult> | StepResult;

/** A step, or a tRPC middleware made with `middleware()` (its function runs as a step). */
type StepLike = Step<never> | object;

function stepsOf(items: ReadonlyArray<StepLike>): Step<unknown>[] {
  return items.flatMap(
    (item) => (typeof item === 'function' ? [item] : middlewareFunctionsOf(item)) as Step<unknown>[],
  );
}

/**
 * The shared middleware of a kind of procedure, run as ONE tRPC middleware.
 * tRPC copies its options and the whole context (a transpiled object spread,
 * key by key) at every layer: with ten layers that was a third of a job
 * read's CPU. Here the steps share one context object that `next({ ctx })`
 * extends in place, and tRPC sees a single layer. Semantics are tRPC's: a
 * step that throws turns into a failed result for the step before it, and
 * a step may call `next()` again (a retried read).
 *
 * `Added` is the context the steps add (actor, store…), which procedures see.
 */
export function chainSteps<Added extends object>(items: ReadonlyArray<StepLike>) {
  const steps = stepsOf(items);
  return middleware(async (opts) => {
    const ctx: Record<string, unknown> = { ...opts.ctx };
    const added: Record<string, unknown> = {};
    // tRPC's types take ctx or getRawInput; at run time next() takes both at once.
    const finish = (getRawInput: () => Promise<unknown>) =>
      opts.next({ ctx: added as Added, getRawInput } as { ctx: Added });
    const run = async (index: number, getRawInput: () => Promise<unknown>): Promise<StepResult> => {
      if (index === steps.length) return finish(getRawInput);
      try {
        return await steps[index]!({
          ctx,
          type: opts.type,
          path: opts.path,
          meta: opts.meta,
          getRawInput,
          next: (next) => {
            if (next?.ctx) {
              Object.assign(ctx, next.ctx);
              Object.assign(added, next.ctx);
            }
            return run(index + 1, next?.getRawInput ?? getRawInput);
          },
        });
      } catch (cause) {
        return { ok: false, error: getTRPCErrorFromUnknown(cause) };
      }
    };
    return run(0, opts.getRawInput) as ReturnType<typeof finish>;
  });
}
