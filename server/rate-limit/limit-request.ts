import type { Request, Response } from 'express';
import { sendErrorDescription } from '../http/error-body.js';
import type { Services } from '../services.js';
import { createHttpContextFactory } from '../trpc/context.js';
import { describeError } from '../trpc/errors.js';
import { enforceRateLimit } from './enforce-rate-limit.js';
import type { LimitName } from './rate-limits.js';

/**
 * The procedures' rate limit for routes that answer neither JSON nor through
 * plainRoute (redirects, a proxy): same keys, same 429 body. Returns false
 * when it has answered.
 */
export async function withinRateLimit(
  services: Services,
  req: Request,
  res: Response,
  strict?: LimitName,
): Promise<boolean> {
  try {
    await enforceRateLimit(createHttpContextFactory(services, 'rest')({ req, res }), strict);
    return true;
  } catch (error) {
    sendErrorDescription(res, describeError(error));
    return false;
  }
}
