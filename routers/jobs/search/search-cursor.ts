import { createHash } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../../../contracts/app-error.js';

/**
 * Where a search stopped: the status (index in the searched list), the
 * position in it, the last job examined there that stayed (the anchor), the
 * jobs seen and matched so far, and the chunk size it had settled on.
 *
 * The scan resumes right after the anchor, wherever it has moved: jobs acted
 * on (retried, removed, moved) leave the status, and others may arrive at
 * its head meanwhile, so a plain offset would skip or repeat jobs. `offset`
 * (advanced by the jobs examined, less those that left) is the fallback when
 * the anchor itself has gone.
 */
export interface SearchPosition {
  statusIndex: number;
  offset: number;
  anchor?: string | undefined;
  scannedTotal: number;
  matchedTotal: number;
  chunkSize: number;
}

const cursorSchema = z.object({
  v: z.literal(1),
  f: z.string(),
  s: z.number().int().min(0),
  o: z.number().int().min(0),
  n: z.number().int().min(0),
  c: z.number().int().min(1).max(10_000),
  a: z.string().optional(),
  m: z.number().int().min(0).optional(),
});

/** Ties a cursor to the search it came from, so it cannot continue another one. */
export function searchFingerprint(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 16);
}

/** An opaque string (base64url JSON) for the client to hand back. */
export function encodeCursor(fingerprint: string, position: SearchPosition): string {
  const payload = {
    v: 1,
    f: fingerprint,
    s: position.statusIndex,
    o: position.offset,
    n: position.scannedTotal,
    c: position.chunkSize,
    a: position.anchor,
    m: position.matchedTotal,
  };
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
    throw new AppError(
      'VALIDATION_FAILED',
      'cursor belongs to another search (queue, q, in and status, and for an action dryRun, must stay the same)',
      { field: 'cursor' },
    );
  }
  return {
    statusIndex: payload.s,
    offset: payload.o,
    anchor: payload.a,
    scannedTotal: payload.n,
    matchedTotal: payload.m ?? 0,
    chunkSize: payload.c,
  };
}

/** The position a cursor holds, or the start of the first status. */
export function startingPosition(cursor: string | undefined, fingerprint: string, chunkSize: number): SearchPosition {
  return cursor
    ? decodeCursor(cursor, fingerprint)
    : { statusIndex: 0, offset: 0, scannedTotal: 0, matchedTotal: 0, chunkSize };
}
