import type { Response } from 'express';
import { AppError } from '../../contracts/app-error.js';
import type { Context } from '../trpc/context.js';
import type { LimitName, LimitState } from './rate-limits.js';

/** Signed-in callers are limited per user or token, everyone else per client IP (TRUST_PROXY decides which). */
async function callerKey(ctx: Context): Promise<string> {
  const identity = await ctx.identify().catch(() => null);
  if (identity?.kind === 'user') return `user:${identity.user.id}`;
  if (identity?.kind === 'token') return `token:${identity.token.id}`;
  return `ip:${ctx.req?.ip ?? 'unknown'}`;
}

function announce(res: Response | undefined, state: LimitState): void {
  res?.setHeader('RateLimit-Limit', String(state.limit));
  res?.setHeader('RateLimit-Remaining', String(state.remaining));
  res?.setHeader('RateLimit-Reset', String(state.resetSeconds));
}

/**
 * The general limit, then `strict` when given: 429 RATE_LIMITED with
 * Retry-After once a limit is spent. Calls from HTTP only (in-process callers
 * are not limited). Used by the procedures' middleware and the plain routes.
 */
export async function enforceRateLimit(ctx: Context, strict?: LimitName): Promise<void> {
  const limits = ctx.services.rateLimits;
  if (!limits.enabled || !ctx.req) return;
  const key = await callerKey(ctx);
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
}
