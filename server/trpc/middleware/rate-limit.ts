import type { LimitName } from '../../rate-limit/rate-limits.js';
import { enforceRateLimit } from '../../rate-limit/enforce-rate-limit.js';
import { middleware, type ProcedureMeta } from '../init.js';

/** The stricter limit a procedure is subject to on top of the general one. */
function strictLimitOf(meta: ProcedureMeta | undefined): LimitName | undefined {
  if (meta?.strictLimit) return meta.strictLimit;
  return meta?.permission === 'connections.test' ? 'connectionTest' : undefined;
}

/** One middleware for every procedure: the general limit, then the procedure's stricter one. */
export const rateLimit = middleware(async ({ ctx, meta, next }) => {
  await enforceRateLimit(ctx, strictLimitOf(meta));
  return next();
});
