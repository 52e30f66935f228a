import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from './limiter-classes.js';
import type { RateLimitConfig } from '../config.js';
import type { Logger } from '../logger.js';

/** `general` for every call; the strict ones on top, for sign-in/sign-up and connection tests. */
export type LimitName = 'general' | 'credentials' | 'connectionTest' | 'accountFailures';

export interface LimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export type ConsumeOutcome =
  | { allowed: true; state: LimitState }
  | { allowed: false; state: LimitState; retryAfterSeconds: number };

/** The limiters, built once at startup; in memory, or in Redis when RATE_LIMIT_REDIS_URL is set. */
export interface RateLimits {
  readonly enabled: boolean;
  consume(name: LimitName, key: string): Promise<ConsumeOutcome>;
  /** Seconds until `key` may try again when its `name` budget is spent, else null (nothing consumed). */
  blockedFor(name: LimitName, key: string): Promise<number | null>;
  close(): Promise<void>;
}

const pointsByName = (config: RateLimitConfig): Record<LimitName, number> => ({
  general: config.max,
  credentials: config.authMax,
  connectionTest: config.connectionTestMax,
  accountFailures: config.accountMax,
});

function stateOf(result: RateLimiterRes, limit: number): LimitState {
  return { limit, remaining: Math.max(0, result.remainingPoints), resetSeconds: Math.ceil(result.msBeforeNext / 1000) };
}

export function createRateLimits(config: RateLimitConfig, logger: Logger): RateLimits {
  if (!config.enabled) {
    return {
      enabled: false,
      consume: async () => ({ allowed: true, state: { limit: 0, remaining: 0, resetSeconds: 0 } }),
      blockedFor: async () => null,
      close: async () => {},
    };
  }
  // The offline queue covers the first moments while the client connects (without it the first
  // requests of every replica fell back to per-process limits); the timeout bounds an outage's cost.
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 500, connectTimeout: 1000 })
    : null;
  redis?.on('error', (error) =>
    logger.warn({ err: error.message }, 'rate-limit store error; limiting per process meanwhile'),
  );
  const points = pointsByName(config);
  const limiters = Object.fromEntries(
    (Object.keys(points) as LimitName[]).map((name) => {
      const options = { keyPrefix: `bullpen-rl-${name}`, points: points[name], duration: config.windowSeconds };
      const memory = new RateLimiterMemory(options);
      // With a shared store, an outage falls back to per-process limits instead of failing requests.
      const limiter: RateLimiterAbstract = redis
        ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: memory })
        : memory;
      return [name, limiter];
    }),
  ) as Record<LimitName, RateLimiterAbstract>;

  return {
    enabled: true,
    async consume(name, key) {
      try {
        return { allowed: true, state: stateOf(await limiters[name].consume(key), points[name]) };
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const state = stateOf(rejection, points[name]);
        return { allowed: false, state, retryAfterSeconds: Math.max(1, state.resetSeconds) };
      }
    },
    async blockedFor(name, key) {
      const used = await limiters[name].get(key);
      if (!used || used.consumedPoints < points[name]) return null;
      return Math.max(1, Math.ceil(used.msBeforeNext / 1000));
    },
    async close() {
      redis?.disconnect();
    },
  };
}
