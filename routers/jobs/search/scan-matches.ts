import type { Queue } from 'bullmq';
import type { SearchableField } from '../../../contracts/job-search.js';
import { parseWhere } from '../../../contracts/job-where.js';
import type { JobStatus } from '../../../contracts/jobs.js';
import { loadBullmq } from '../../../server/bullmq/bullmq-module.js';
import { toJobState } from '../../../server/bullmq/job-state.js';
import type { QueueStore } from '../../../server/stores/queue-store.js';
import { jobMatcher } from './match-jobs.js';
import type { SearchPosition } from './search-cursor.js';

/**
 * Jobs read per chunk. A chunk starts small and doubles while the searched
 * fields stay light, shrinking again when a chunk's values pass
 * `chunkByteTarget`: memory stays near one chunk of a few MB whatever the
 * payload sizes, and small jobs are scanned in big, cheap chunks.
 */
export const searchChunkSizes = { initial: 50, max: 1000, min: 5 };
export const chunkByteTarget = 8 * 1024 * 1024;

/** The next chunk's size after one of `size` jobs whose searched values took `bytes`. */
export function nextChunkSize(size: number, bytes: number): number {
  const { max, min } = searchChunkSizes;
  if (bytes > chunkByteTarget) return Math.max(min, Math.floor((size * chunkByteTarget) / bytes));
  return bytes * 2 <= chunkByteTarget ? Math.min(max, size * 2) : size;
}

export interface Match {
  id: string;
  status: JobStatus;
}

/** Receives matches before the scan reads on, and answers the ids among them that left their status (acted on). */
export type MatchHandler = (matches: Match[]) => Promise<ReadonlySet<string>>;

/** The store's reads a scan makes: a chunk of a status, and the matched-on fields of its jobs. */
export type ScanStore = Pick<QueueStore, 'statusChunk' | 'jobFields'>;

export interface ScanOptions {
  store: ScanStore;
  queue: Queue;
  /** Text to find in `fields`; with `where`, a job must match both. */
  q?: string | undefined;
  fields: readonly SearchableField[];
  /** Structured terms (contracts/job-where.ts), already checked by the input schema. */
  where?: string | undefined;
  statuses: readonly JobStatus[];
  /** Where to start; advanced in place. */
  position: SearchPosition;
  /** The first request of a search: an exact id is looked up once, before the scan. */
  fresh: boolean;
  limit: number;
  budgetMs: number;
  /** A fixed chunk size instead of the adaptive one (tests). */
  chunkSize?: number | undefined;
  onMatches: MatchHandler;
}

const noneLeft: ReadonlySet<string> = new Set();

/** An exact id is a direct lookup, done once at the start of a search. */
async function exactIdMatch(queue: Queue, q: string, statuses: readonly JobStatus[]): Promise<Match | undefined> {
  const state = toJobState(await queue.getJobState(q));
  return (statuses as readonly string[]).includes(state) ? { id: q, status: state as JobStatus } : undefined;
}

/**
 * Scans the statuses newest first, a chunk at a time, matching on the
 * searched fields only, handing each chunk's matches to `onMatches` before
 * reading on, until `limit` matches or the time budget is spent (at least
 * one chunk per call, so every call makes progress). Answers this call's
 * counts; `position` holds where to continue.
 */
export async function scanMatches(options: ScanOptions): Promise<{ matched: number; scanned: number; done: boolean }> {
  const { queue, q, statuses, position, limit, budgetMs, chunkSize: fixedChunkSize, onMatches } = options;
  const started = Date.now();
  const where = options.where === undefined ? undefined : parseWhere(options.where);
  const decodeOpts = where?.some((term) => term.root === 'opts') ? (await loadBullmq()).Job.optsFromJSON : undefined;
  const matchIds = jobMatcher(options.store, queue, { q, fields: options.fields, where, decodeOpts });
  let matched = 0;
  let scanned = 0;
  // The exact-id shortcut is for text searches: a structured match reads the job's fields.
  const exact =
    options.fresh && q !== undefined && where === undefined && options.fields.includes('id')
      ? await exactIdMatch(queue, q, statuses)
      : undefined;
  if (exact) {
    await onMatches([exact]);
    matched += 1;
    position.matchedTotal += 1;
  }

  for (
    let chunks = 0;
    position.statusIndex < statuses.length && matched < limit && (chunks === 0 || Date.now() - started < budgetMs);
    chunks++
  ) {
    const status = statuses[position.statusIndex]!;
    const size = position.chunkSize;
    // Right after the anchor if it is still there, else at the offset.
    const { start, ids, anchorGone } = await options.store.statusChunk(queue, status, position, size);
    if (anchorGone) position.anchor = undefined;
    const { matched: flags, bytes } = await matchIds(ids);
    position.chunkSize = fixedChunkSize ?? nextChunkSize(size, bytes);
    const found: Match[] = [];
    let consumed = 0;
    for (const [index, id] of ids.entries()) {
      consumed = index + 1;
      // The exact id was handled before the scan.
      if (flags[index] && id !== q) found.push({ id, status });
      if (matched + found.length >= limit) break;
    }
    const left = found.length > 0 ? await onMatches(found) : noneLeft;
    const examined = ids.slice(0, consumed);
    const stayed = examined.filter((id) => !left.has(id));
    matched += found.length;
    scanned += consumed;
    position.scannedTotal += consumed;
    position.matchedTotal += found.length;
    if (ids.length < size && consumed === ids.length) {
      Object.assign(position, { statusIndex: position.statusIndex + 1, offset: 0, anchor: undefined });
    } else {
      position.offset = start + stayed.length;
      position.anchor = stayed.at(-1) ?? position.anchor;
    }
  }
  return { matched, scanned, done: position.statusIndex >= statuses.length };
}
