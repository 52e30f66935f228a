import { createRequire } from 'node:module';
import type * as Flexible from 'rate-limiter-flexible';

// The three classes the service uses, each from its own file: the package's index loads every one of
// its ~25 store adapters (Mongo, MySQL, Dynamo, etc.; ~0.7 MB of heap at startup, issue 16's memory target).
// The files are the ones the index itself loads, so `instanceof RateLimiterRes` holds whichever was used.
const load = createRequire(import.meta.url);

export const RateLimiterMemory: typeof Flexible.RateLimiterMemory = load(
  'rate-limiter-flexible/lib/RateLimiterMemory.js',
);
export const RateLimiterRedis: typeof Flexible.RateLimiterRedis = load('rate-limiter-flexible/lib/RateLimiterRedis.js');
export const RateLimiterRes: typeof Flexible.RateLimiterRes = load('rate-limiter-flexible/lib/RateLimiterRes.js');
export type RateLimiterRes = Flexible.RateLimiterRes;
export type RateLimiterAbstract = Flexible.RateLimiterAbstract;
