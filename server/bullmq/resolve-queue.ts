import type { Queue } from 'bullmq';
import { spansSlots, spansSlotsError } from './cluster-slots.js';
import { AppError } from '../../contracts/app-error.js';
import { queueParams } from '../../contracts/params.js';
import type { StoreHandle } from '../stores/store-handle.js';
import type { QueueRef } from './queue-key.js';

/** What a route names: `:queueName` and the optional `prefix` choice. */
export interface QueueTarget {
  queueName: string;
  prefix?: string | undefined;
}

// The route's other fields are its own schema's business (it is strict): only these two are read here.
const queueSelector = queueParams.pick({ queueName: true, prefix: true }).strip();

/** `:queueName` and `prefix` from a request's raw input, checked with the routes' own schema (400 otherwise). */
export function queueTargetOf(raw: unknown): QueueTarget {
  return queueSelector.parse(raw ?? {});
}

/**
 * How a route uses its queue: `read` (the default) reads or acts on existing
 * state, so a missing queue is 404; `create` creates it as a producer does
 * (adding a job, creating a scheduler); `remove` takes it away.
 */
export type QueueUse = 'read' | 'create' | 'remove';

/** The queue a route acts on: where it lives, whether it existed, and a BullMQ handle on its keys. */
export interface ResolvedQueue {
  ref: QueueRef;
  queue: Queue;
  existed: boolean;
}

/** What the logic of a route under a queue takes: the store and the resolved queue. */
export interface QueueOnStore {
  store: StoreHandle;
  queue: ResolvedQueue;
}

/** The prefixes to look under: the one asked for (400 unless the connection has it), else all of them in order. */
function candidatePrefixes(store: StoreHandle, prefix: string | undefined): string[] {
  if (prefix === undefined) return store.prefixes.length > 0 ? store.prefixes : [store.defaultPrefix];
  if (!store.prefixes.includes(prefix)) {
    throw new AppError(
      'VALIDATION_FAILED',
      `prefix: "${prefix}" is not a prefix of this connection (${store.prefixes.join(', ')})`,
      { field: 'prefix' },
    );
  }
  return [prefix];
}

const notFound = (store: StoreHandle, { queueName, prefix }: QueueTarget) =>
  new AppError(
    'NOT_FOUND',
    `Queue "${queueName}" was not found ${prefix === undefined ? `on connection "${store.connection.name}"` : `under prefix "${prefix}"`}`,
    {
      queueName,
    },
  );

/**
 * Where a route's queue may be, found without a round trip: the candidate
 * prefixes in order and the 404 resolveQueue gives when it is under none.
 * For routes whose one read script checks the queue's meta key itself
 * (meta.queueCheck `in-script`), so the check costs no round trip of its own.
 */
export interface QueueLookup {
  name: string;
  prefixes: string[];
  notFound(): AppError;
}

/** The lookup of a route's queue: 400 for a prefix the connection does not have, as resolveQueue. */
export function queueLookup(store: StoreHandle, target: QueueTarget): QueueLookup {
  const prefixes = candidatePrefixes(store, target.prefix);
  // On a cluster a queue without a hash tag cannot be read by a script (CROSSSLOT): only tagged candidates.
  const runnable = store.connection.cluster
    ? prefixes.filter((prefix) => !spansSlots(true, { prefix, name: target.queueName }))
    : prefixes;
  if (runnable.length === 0) throw spansSlotsError(target.queueName);
  return {
    name: target.queueName,
    prefixes: runnable,
    notFound: () => notFound(store, target),
  };
}

/** BullMQ refuses ':' in a new queue's name; existing ones stay readable (see bullmqAddress). */
const unsupportedName = (queueName: string) =>
  new AppError(
    'UNSUPPORTED_QUEUE_NAME',
    `Queue name "${queueName}" contains ":", which BullMQ does not allow in new queues; queues with such names that already exist can be read and acted on, not created`,
    { queueName },
  );

/**
 * Resolves a route's queue: the first candidate prefix whose meta key exists
 * (one pipelined EXISTS per candidate: one round trip), else 404 — nothing
 * ever acts on, or creates, a queue that is not there. A `create` route
 * instead takes the requested prefix, or the connection's first, and refuses
 * a name BullMQ would refuse.
 */
export async function resolveQueue(
  store: StoreHandle,
  target: QueueTarget,
  use: QueueUse = 'read',
): Promise<ResolvedQueue> {
  // Every candidate, tagged or not: a queue found whose keys span a cluster's slots is refused by store.queue (400).
  const candidates = candidatePrefixes(store, target.prefix).map(
    (prefix): QueueRef => ({ prefix, name: target.queueName }),
  );
  const exists = await store.queuesExist(candidates);
  const found = candidates.find((_, index) => exists[index]);
  if (!found && use !== 'create') throw notFound(store, target);
  if (!found && target.queueName.includes(':')) throw unsupportedName(target.queueName);
  const ref = found ?? candidates[0]!;
  return { ref, queue: await store.queue(ref.name, ref.prefix), existed: found !== undefined };
}
