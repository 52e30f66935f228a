import { createHash } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../../../contracts/app-error.js';

/**
 * Where a search stopped: the status (index in the searched list), the
 * position in it, the jobs seen so far, and the chunk size it had settled on.
 */
export interface SearchPosition {
  statusIndex: number;
  offset: number;
  scannedTotal: number;
  chunkSize: number;
}

const cursorSchema = z.object({
  v: z.literal(1),
  f: z.string(),
  s: z.number().int().min(0),
  o: z.number().int().min(0),
  n: z.number().int().min(0),
  c: z.number().int().min(1).max(10_000),
});

/** Ties a cursor to the search it came from, so it cannot continue another one. */
export function searchFingerprint(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

/** An opaque string (base64url JSON) for the client to hand back. */
export function encodeCursor(fingerprint: string, position: SearchPosition): string {
  const payload = { v: 1, f: fingerprint, s: position.statusIndex, o: position.offset, n: position.scannedTotal, c: position.chunkSize };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

export function decodeCursor(cursor: string, fingerprint: string): SearchPosition {
  let payload: z.infer<typeof cursorSchema>;
  try {
    payload = cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw new AppError('VALIDATION_FAILED', 'cursor is not a cursor this service issued', { field: 'cursor' });
  }
  if (payload.f !== fingerprint) {
    throw new AppError('VALIDATION_FAILED', 'cursor belongs to another search (queue, q, in and status must stay the same)', { field: 'cursor' });
  }
  return { statusIndex: payload.s, offset: payload.o, scannedTotal: payload.n, chunkSize: payload.c };
}
