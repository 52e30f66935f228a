import type { ErrorCode } from './error-codes.js';

/**
 * An expected failure of a domain operation. The HTTP layer turns `code` into
 * the status from `errorStatusByCode`; `details` become extra fields of the
 * error body (e.g. the purge cap names the `status` that hit it).
 */
export class AppError extends Error {
  override name = 'AppError';

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} was not found`);
