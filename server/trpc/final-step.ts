import type { AnyMiddlewareFunction } from '@trpc/server';

/** The builder calls that return another builder: each must carry the final step on. */
const chainingCalls = new Set<PropertyKey>(['input', 'output', 'meta', 'use', 'errors', 'concat', 'unstable_concat']);
export type FinishingCall = 'query' | 'mutation' | 'subscription';

type Builder = Record<PropertyKey, unknown> & { use(step: AnyMiddlewareFunction): Builder };

/**
 * A procedure builder whose procedures all run `step` last, after their
 * input is parsed and just before the resolver, however the procedure orders
 * its `.meta()`, `.input()` and `.output()` calls. tRPC runs middlewares in
 * the order they are added and parses the input where `.input()` is called,
 * so a step that must judge the *parsed* input (what the procedure will
 * really do, after zod dropped, defaulted and coerced fields) is added when
 * the procedure is finished (`on`: which kinds of procedure get it; the
 * others are left alone). Only tRPC's public builder API is used.
 */
export function withFinalStep<B extends object>(
  builder: B,
  step: AnyMiddlewareFunction,
  on: readonly FinishingCall[],
): B {
  const finishingCalls = new Set<PropertyKey>(on);
  return new Proxy(builder, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (finishingCalls.has(key)) {
        return (resolver: unknown) => {
          const finished = (target as unknown as Builder).use(step);
          return (finished[key] as (resolver: unknown) => unknown)(resolver);
        };
      }
      if (chainingCalls.has(key))
        return (...args: unknown[]) =>
          withFinalStep((value as (...args: unknown[]) => object).apply(target, args), step, on);
      return value;
    },
  });
}
