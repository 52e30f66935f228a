import type { Response } from 'express';
import { AppError } from '../../contracts/app-error.js';
import type { Context } from '../trpc/context.js';
import type { LimitName, LimitState } from './rate-limits.js';

/** The client address (TRUST_PROXY decides which). */
const addressKey = (ctx: Context) => `ip:${ctx.req?.ip ?? 'unknown'}`;

/**
 * Signed-in callers are limited per user or token, everyone else per client
 * address. The `credentials` limit (sign-in, sign-up, resets) counts per
 * address always: a token or cookie the caller chooses to send along must not
 * buy a fresh budget of guesses (the per-account count is account-sign-in-limit.ts).
 */
async function callerKey(ctx: Context, name: LimitName): Promise<string> {
  if (name === 'credentials') return addressKey(ctx);
  const identity = await ctx.identify().catch(() => null);
  if (identity?.kind === 'user') return `user:${identity.user.id}`;
  if (identity?.kind === 'token') return `token:${identity.token.id}`;
  return addressKey(ctx);
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
  for (const name of strict ? (['general', strict] as const) : (['general'] as const)) {
    const outcome = await limits.consume(name, await callerKey(ctx, name));
    announce(ctx.res, outcome.state);
    if (!outcome.allowed) {
      ctx.res?.setHeader('Retry-After', String(outcome.retryAfterSeconds));
      throw new AppError('RATE_LIMITED', `Too many requests; retry in ${outcome.retryAfterSeconds} s`, {
        retryAfterSeconds: outcome.retryAfterSeconds,
      });
    }
  }
}
