import { z } from 'zod';
import { AppError } from '../../../contracts/app-error.js';
import { searchFingerprint } from '../search/search-cursor.js';

/**
 * Where a triage stopped, in the failed set (scored by failure time, read
 * newest first): the window, the score the next read starts at (`upper`),
 * how many jobs at exactly that score were already examined (`skip`), and
 * the jobs examined so far. A score, not an offset: jobs retried or removed
 * meanwhile shift no position, and later failures are above `to`, unread.
 */
export interface FailuresPosition {
  from: number;
  to: number;
  upper: number;
  skip: number;
  scannedTotal: number;
}

const cursorSchema = z.object({
  v: z.literal(1),
  f: z.string(),
  from: z.number().int().min(0),
  to: z.number().int().min(0),
  u: z.number().int().min(0),
  s: z.number().int().min(0),
  n: z.number().int().min(0),
});

/** Ties a cursor to the queue it came from. */
export const failuresFingerprint = (queue: { name: string; prefix: string }) =>
  searchFingerprint(['failures', queue.prefix, queue.name]);

export function encodeFailuresCursor(fingerprint: string, position: FailuresPosition): string {
  const payload = {
    v: 1,
    f: fingerprint,
    from: position.from,
    to: position.to,
    u: position.upper,
    s: position.skip,
    n: position.scannedTotal,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

export function decodeFailuresCursor(cursor: string, fingerprint: string): FailuresPosition {
  let payload: z.infer<typeof cursorSchema>;
  try {
    payload = cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw new AppError('VALIDATION_FAILED', 'cursor is not a cursor this service issued', { field: 'cursor' });
  }
  if (payload.f !== fingerprint)
    throw new AppError('VALIDATION_FAILED', 'cursor belongs to the failures of another queue', { field: 'cursor' });
  return { from: payload.from, to: payload.to, upper: payload.u, skip: payload.s, scannedTotal: payload.n };
}

/** After a page read newest first: the next read starts at the last score, past the jobs of that score already read. */
export function advance(position: FailuresPosition, scores: number[]): void {
  const last = scores.at(-1);
  if (last === undefined) return;
  const atLast = scores.filter((score) => score === last).length;
  position.skip = last === position.upper ? position.skip + atLast : atLast;
  position.upper = last;
  position.scannedTotal += scores.length;
}
