import type { QueueDirectory } from '../../bullmq/queue-directory.js';
import {
  queueLookup,
  queueTargetOf,
  resolveQueue,
  type QueueLookup,
  type QueueUse,
  type ResolvedQueue,
} from '../../bullmq/resolve-queue.js';
import type { StoreHandle } from '../../stores/store-handle.js';
import { describeError } from '../errors.js';

/**
 * Keeps the connection's queue-name directory fresh, in one place, after a
 * route that created (`create`) or removed (`remove`) a queue succeeded:
 * queue lists show the change at once.
 */
export function updateQueueDirectory(
  directory: QueueDirectory,
  store: StoreHandle,
  use: QueueUse,
  resolved: ResolvedQueue,
): void {
  if (use === 'create' && !resolved.existed) directory.remember(store.connection.id, resolved.ref);
  if (use === 'remove') directory.removed(store.connection.id, resolved.ref);
}

/**
 * The REST adapter drops empty query values, so `?prefix=` would silently
 * mean "the default prefix" (and a DELETE act there). Put it back: the
 * shared schema then refuses it with 400, as every other route does.
 */
export function withEmptyPrefix(raw: unknown, query: unknown): unknown {
  const given = (query as Record<string, unknown> | undefined)?.prefix;
  const input = (raw ?? {}) as Record<string, unknown>;
  return given === '' && input.prefix === undefined ? { ...input, prefix: '' } : raw;
}

interface QueueCall<Result extends { ok: true } | { ok: false; error: unknown }> {
  store: StoreHandle;
  /** The REST request's query string, when there is one. */
  query?: unknown;
  directory: QueueDirectory;
  use: QueueUse;
  /** `in-script`: the route's read script checks the queue itself (meta.queueCheck). */
  check?: 'in-script' | undefined;
  getRawInput(): Promise<unknown>;
  next(queue: ResolvedQueue, lookup: QueueLookup): Promise<Result>;
}

/**
 * ctx.queue of a route that checks its queue in its own script: never
 * resolved (no round trip was spent on it), so reading it is a bug that
 * must show at once rather than act on a guessed prefix.
 */
function unresolvedQueue(lookup: QueueLookup): ResolvedQueue {
  const misuse = (): never => {
    throw new Error(
      `Queue "${lookup.name}" is checked by the route's own script (meta.queueCheck 'in-script'): read ctx.queueLookup, not ctx.queue`,
    );
  };
  return {
    get ref() {
      return misuse();
    },
    get queue() {
      return misuse();
    },
    get existed() {
      return misuse();
    },
  };
}

/**
 * For every route under a queue: resolves `:queueName` (and `prefix`) once,
 * before the route does anything — 404 for a missing queue unless the
 * route creates it (see resolveQueue) — hands the route the resolved queue,
 * and keeps the directory fresh after it. A route whose read script checks
 * the queue itself (`in-script`: job detail, logs and pages, one round trip
 * each) gets only the lookup: candidate prefixes and the same 404.
 */
export async function withRouteQueue<Result extends { ok: true } | { ok: false; error: unknown }>(
  call: QueueCall<Result>,
): Promise<Result> {
  const target = queueTargetOf(withEmptyPrefix(await call.getRawInput(), call.query));
  const lookup = queueLookup(call.store, target);
  if (call.check === 'in-script') {
    const result = await call.next(unresolvedQueue(lookup), lookup);
    // Refused input never reached the script: a missing queue still answers 404 first, as on the
    // routes resolved before parsing (the EXISTS round trip is spent on bad requests only).
    if (!result.ok && describeError(result.error).httpStatus === 400) await resolveQueue(call.store, target, 'read');
    return result;
  }
  const queue = await resolveQueue(call.store, target, call.use);
  const result = await call.next(queue, lookup);
  if (result.ok) updateQueueDirectory(call.directory, call.store, call.use, queue);
  return result;
}
