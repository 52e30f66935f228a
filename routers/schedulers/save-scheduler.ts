import type { Schedule, Scheduler, SchedulerJobOptions } from '../../contracts/schedulers.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { ResolvedQueue } from '../../server/bullmq/resolve-queue.js';
import { AppError } from '../../contracts/app-error.js';
import { readScheduler, schedulerNotFound } from './get-scheduler.js';
import { toRepeatOptions } from './validate-schedule.js';

export interface SaveSchedulerRequest {
  store: StoreHandle;
  queue: ResolvedQueue;
  schedulerId: string;
  name: string;
  data?: unknown;
  schedule: Schedule;
  options?: SchedulerJobOptions | undefined;
  /** `create`: 409 when the id exists; `update`: 404 when it does not. */
  mode: 'create' | 'update';
}

/**
 * Creates or replaces a job scheduler with BullMQ's upsertJobScheduler, after
 * validating the schedule. Creating may also create the queue (BullMQ writes
 * its meta key with the first job).
 */
export async function saveScheduler(request: SaveSchedulerRequest): Promise<Scheduler> {
  const { store, queue, schedulerId, mode } = request;
  const { ref } = queue;
  const repeat = await toRepeatOptions(request.schedule);
  const existing = await readScheduler(queue, schedulerId);
  if (mode === 'create' && existing) {
    throw new AppError(
      'CONFLICT',
      `Job scheduler ${schedulerId} already exists in queue ${ref.name}; update it with PUT`,
      { schedulerId },
    );
  }
  if (mode === 'update' && !existing) throw schedulerNotFound(ref, schedulerId);
  await queue.queue.upsertJobScheduler(schedulerId, repeat, {
    name: request.name,
    data: request.data ?? {},
    opts: request.options ?? {},
  });
  await store.writeQueueMeta(ref.name, ref.prefix);
  const saved = await readScheduler(queue, schedulerId);
  if (!saved)
    throw new AppError('CONFLICT', `Job scheduler ${schedulerId} produces no further run (limit or endDate reached)`, {
      schedulerId,
    });
  return saved;
}
