import { createHash } from 'node:crypto';
import { AppError } from '../../contracts/app-error.js';
import type { RateLimits } from '../../server/rate-limit/rate-limits.js';
import { normalizeEmail } from '../../server/auth/views.js';

/** The account's key in the limiter: a hash, so the shared store holds no email addresses. */
const accountKey = (email: string) => createHash('sha256').update(normalizeEmail(email)).digest('base64url');

const tooMany = (retryAfterSeconds: number) =>
  new AppError('RATE_LIMITED', `Too many failed sign-ins for this account; retry in ${retryAfterSeconds} s`, {
    retryAfterSeconds,
  });

/**
 * Failed sign-ins are counted per account (RATE_LIMIT_ACCOUNT_MAX per window),
 * whatever address they come from: guesses spread over many sources still run
 * out. Once spent, the account answers 429 without checking the password.
 * Counted in the shared store when RATE_LIMIT_REDIS_URL is set.
 */
export async function limitFailedSignIns<T>(limits: RateLimits, email: string, attempt: () => Promise<T>): Promise<T> {
  const key = accountKey(email);
  const blocked = await limits.blockedFor('accountFailures', key);
  if (blocked !== null) throw tooMany(blocked);
  try {
    return await attempt();
  } catch (error) {
    if (error instanceof AppError && error.code === 'UNAUTHORIZED') {
      const outcome = await limits.consume('accountFailures', key);
      if (!outcome.allowed) throw tooMany(outcome.retryAfterSeconds);
    }
    throw error;
  }
}
