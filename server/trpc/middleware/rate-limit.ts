import type { Response } from 'express';
import { AppError } from '../../../domain/errors.js';
import type { LimitName, LimitState } from '../../rate-limit/rate-limits.js';
import type { Context } from '../context.js';
import { middleware, type ProcedureMeta } from '../init.js';

/** Signed-in callers are limited per user or token, everyone else per client IP (TRUST_PROXY decides which). */
async function callerKey(ctx: Context): Promise<string> {
  const identity = await ctx.identify().catch(() => null);
  if (identity?.kind === 'user') return `user:${identity.user.id}`;
  if (identity?.kind === 'token') return `token:${identity.token.id}`;
  return `ip:${ctx.req?.ip ?? 'unknown'}`;
}

/** The stricter limit a procedure is subject to on top of the general one. */
function strictLimitOf(meta: ProcedureMeta | undefined): LimitName | undefined {
  if (meta?.strictLimit) return meta.strictLimit;
  return meta?.permission === 'connections.test' ? 'connectionTest' : undefined;
}

function announce(res: Response | undefined, state: LimitState): void {
  res?.setHeader('RateLimit-Limit', String(state.limit));
  res?.setHeader('RateLimit-Remaining', String(state.remaining));
  res?.setHeader('RateLimit-Reset', String(state.resetSeconds));
}

/**
 * One middleware for every procedure: the general limit, then the procedure's
 * stricter one. Calls from HTTP only (in-process callers are not limited).
 */
export const rateLimit = middleware(async ({ ctx, meta, next }) => {
  const limits = ctx.services.rateLimits;
  if (!limits.enabled || !ctx.req) return next();
  const key = await callerKey(ctx);
  const strict = strictLimitOf(meta);
  for (const name of strict ? (['general', strict] as const) : (['general'] as const)) {
    const outcome = await limits.consume(name, key);
    announce(ctx.res, outcome.state);
    if (!outcome.allowed) {
      ctx.res?.setHeader('Retry-After', String(outcome.retryAfterSeconds));
      throw new AppError('RATE_LIMITED', `Too many requests; retry in ${outcome.retryAfterSeconds} s`, {
        retryAfterSeconds: outcome.retryAfterSeconds,
      });
    }
  }
  return next();
});
