import { middleware } from '../init.js';
import { toTrpcError } from '../errors.js';

/**
 * Domain code throws AppError; this gives the error the tRPC code whose HTTP
 * status matches the AppError's, so REST and tRPC answer alike.
 */
export const mapErrors = middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) throw toTrpcError(result.error);
  return result;
});
