import type { JobSchedulerJson } from 'bullmq';
import type { Scheduler } from '../../contracts/schedulers.js';
import type { QueueRef } from '../../server/bullmq/list-queue-names.js';

const isoOrUndefined = (millis: number | undefined) => (millis ? new Date(millis).toISOString() : undefined);

/** BullMQ's scheduler record as the API shows it: dates as ISO strings, the template always present. */
export function toScheduler(queue: QueueRef, json: JobSchedulerJson): Scheduler {
  return {
    id: json.key,
    queueName: queue.name,
    prefix: queue.prefix,
    name: json.name,
    pattern: json.pattern,
    every: json.every,
    tz: json.tz,
    startDate: isoOrUndefined(json.startDate),
    endDate: isoOrUndefined(json.endDate),
    limit: json.limit,
    iterationCount: json.iterationCount,
    next: isoOrUndefined(json.next ?? undefined) ?? null,
    template: { data: json.template?.data ?? null, opts: { ...json.template?.opts } },
  };
}
