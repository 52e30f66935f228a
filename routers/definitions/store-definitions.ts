import { AppError } from '../../contracts/app-error.js';
import {
  maxDefinedPerConnection,
  type QueueSettingsDefinition,
  type SchedulerDefinition,
} from '../../contracts/definitions.js';
import type { Scheduler } from '../../contracts/schedulers.js';
import { listQueueNames, type QueueRef } from '../../server/bullmq/list-queue-names.js';
import { pipelinePerQueue } from '../../server/bullmq/pipeline-per-queue.js';
import { queueKey } from '../../server/bullmq/queue-key.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { DefinitionWriters } from './definition-writers.js';

/** The job options a scheduler definition carries: those the scheduler routes take. */
const schedulerOptionKeys = [
  'attempts',
  'backoff',
  'priority',
  'lifo',
  'removeOnComplete',
  'removeOnFail',
  'keepLogs',
  'stackTraceLimit',
] as const;

/** A scheduler as BullMQ keeps it, in the form the scheduler routes (and a definitions document) write it. */
export function schedulerToDefinition(scheduler: Scheduler): SchedulerDefinition {
  const schedule = {
    type: scheduler.pattern !== undefined ? ('cron' as const) : ('every' as const),
    ...(scheduler.pattern !== undefined ? { pattern: scheduler.pattern } : {}),
    ...(scheduler.every !== undefined ? { everyMs: Number(scheduler.every) } : {}),
    ...(scheduler.tz ? { timezone: scheduler.tz } : {}),
    ...(scheduler.startDate ? { startDate: scheduler.startDate } : {}),
    ...(scheduler.endDate ? { endDate: scheduler.endDate } : {}),
    ...(scheduler.limit !== undefined ? { limit: scheduler.limit } : {}),
  };
  const opts = scheduler.template.opts;
  const options = Object.fromEntries(
    schedulerOptionKeys.filter((key) => opts[key] !== undefined).map((key) => [key, opts[key]]),
  );
  return {
    queueName: scheduler.queueName,
    prefix: scheduler.prefix,
    schedulerId: scheduler.id,
    name: scheduler.name,
    data: scheduler.template.data ?? {},
    schedule,
    ...(Object.keys(options).length > 0 ? { options: options as SchedulerDefinition['options'] } : {}),
  };
}

export interface StoreDefinitions {
  /** Queues with a global concurrency or rate limit, both fields said (null: none). */
  queues: QueueSettingsDefinition[];
  schedulers: SchedulerDefinition[];
}

const tooMany = (what: string) =>
  new AppError(
    'CONFLICT',
    `The store holds more than ${maxDefinedPerConnection} ${what}: more than one definitions document holds`,
  );

/**
 * What a store holds that definitions carry: every queue's global concurrency and rate limit (one
 * pipelined HMGET of its meta hash per queue), and every job scheduler (one ZCARD per queue, then the
 * schedulers of the queues that have some). Queue names from a fresh scan, not the cached directory.
 */
export async function readStoreDefinitions(
  store: StoreHandle,
  toScheduler: DefinitionWriters['toScheduler'],
): Promise<StoreDefinitions> {
  const refs = await listQueueNames(store);
  const replies = await pipelinePerQueue(store, refs, (pipeline, ref) =>
    pipeline.hmget(queueKey(ref, 'meta'), 'concurrency', 'max', 'duration').zcard(queueKey(ref, 'repeat')),
  );
  const queues: QueueSettingsDefinition[] = [];
  const withSchedulers: QueueRef[] = [];
  refs.forEach((ref, index) => {
    const [[concurrency, max, duration], schedulerCount] = replies[index] as [Array<string | null>, number];
    const rateLimit = max !== null && duration !== null ? { max: Number(max), durationMs: Number(duration) } : null;
    if (concurrency !== null || rateLimit !== null)
      queues.push({
        queueName: ref.name,
        prefix: ref.prefix,
        globalConcurrency: concurrency === null ? null : Number(concurrency),
        globalRateLimit: rateLimit,
      });
    if (Number(schedulerCount) > 0) withSchedulers.push(ref);
  });
  if (queues.length > maxDefinedPerConnection) throw tooMany('queues with settings');
  const schedulers: SchedulerDefinition[] = [];
  for (const ref of withSchedulers) {
    const found = await (await store.queue(ref.name, ref.prefix)).getJobSchedulers(0, -1, true);
    schedulers.push(...found.map((json) => schedulerToDefinition(toScheduler(ref, json))));
    if (schedulers.length > maxDefinedPerConnection) throw tooMany('job schedulers');
  }
  return { queues, schedulers };
}
