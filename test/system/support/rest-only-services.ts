import { loadConfig } from '../../../server/config.js';
import { createLogger } from '../../../server/logger.js';
import { createRateLimits } from '../../../server/rate-limit/rate-limits.js';
import type { Services } from '../../../server/services.js';

/** What a public REST procedure's shared steps read of the services (config, logger, rate limits): enough for a test router over REST. */
export function restOnlyServices(): Services {
  const config = loadConfig({});
  const logger = createLogger({ level: 'silent' });
  return { config, logger, rateLimits: createRateLimits(config.rateLimit, logger) } as unknown as Services;
}
