import { TRPCClientError } from '@trpc/client';
import type { AppRouter, ErrorCode } from './api-types.js';

interface ErrorData {
  code?: ErrorCode;
  httpStatus?: number;
  message?: string;
  details?: Record<string, unknown>;
  issues?: Array<{ path: Array<string | number>; message: string }>;
}

/**
 * Every failed call of the typed client rejects with this: Bullpen's
 * machine-readable `code`, the HTTP `status`, and the route's extra fields
 * in `details` (e.g. the purge cap's `status`).
 */
export class BullpenError extends TRPCClientError<AppRouter> {
  override name = 'BullpenError';
  /** Machine-readable code, e.g. NOT_FOUND, STORE_UNAVAILABLE; NETWORK_ERROR when no answer came. */
  readonly code: ErrorCode | 'NETWORK_ERROR';
  readonly status: number;
  readonly details: Record<string, unknown>;
  readonly issues: ErrorData['issues'];

  constructor(from: TRPCClientError<AppRouter>) {
    super(from.message, {
      cause: from.cause,
      result: from.shape ? { error: from.shape } : undefined,
      meta: from.meta,
    } as never);
    // TRPCClientError's constructor resets the prototype to its own, which would make `instanceof BullpenError` false.
    Object.setPrototypeOf(this, new.target.prototype);
    const data = (from.data ?? {}) as ErrorData;
    this.code = data.code ?? 'NETWORK_ERROR';
    this.status = data.httpStatus ?? 0;
    this.details = data.details ?? {};
    this.issues = data.issues;
  }
}

export function isBullpenError(error: unknown): error is BullpenError {
  return error instanceof BullpenError;
}
