import { middleware } from '../init.js';
import { describeError, toTrpcError } from '../errors.js';

/** Seconds a client is told to wait after a 503 (database or store unavailable). */
export const unavailableRetryAfterSeconds = 2;

/**
 * Domain code throws AppError; this gives the error the tRPC code whose HTTP
 * status matches the AppError's, so REST and tRPC answer alike. A 503 carries
 * `Retry-After`, and a database that could not serve the call is reported to
 * the health check.
 */
export const mapErrors = middleware(async ({ ctx, next }) => {
  const result = await next();
  if (result.ok) return result;
  const description = describeError(result.error);
  if (description.httpStatus === 503) ctx.res?.setHeader('Retry-After', String(unavailableRetryAfterSeconds));
  const retryAfter = description.details.retryAfterSeconds;
  if (description.httpStatus === 429 && typeof retryAfter === 'number')
    ctx.res?.setHeader('Retry-After', String(retryAfter));
  if (description.code === 'DATABASE_UNAVAILABLE') ctx.services.persistence.reportUnavailable();
  throw toTrpcError(result.error);
});
