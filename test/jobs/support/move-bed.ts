import { Queue } from 'bullmq';
import { afterAll } from 'vitest';
import type { MovePlan } from '../../../routers/jobs/move-jobs.js';
import { storeFixture } from '../../helpers/stores.js';

/** A store for move tests: queues made on it are closed, and its keys removed, after the file's tests. */
export function moveBed() {
  const fixture = storeFixture();
  const opened: Array<{ close(): Promise<unknown> }> = [];
  afterAll(async () => {
    await Promise.all(opened.map((item) => item.close()));
    await fixture.cleanup();
  });
  const queue = (name: string) => {
    const made = new Queue(name, fixture.bullmq);
    opened.push(made);
    return made;
  };
  const ref = (name: string) => ({ prefix: fixture.prefix, name });
  return { fixture, opened, queue, ref };
}

/** `plan` with each options read written to `events` as `read <count>` (the order of reads and carries). */
export function logReads(plan: MovePlan, events: string[]): MovePlan {
  return {
    ...plan,
    source: {
      ...plan.source,
      readOpts: (ids) => {
        events.push(`read ${ids.length}`);
        return plan.source.readOpts(ids);
      },
    },
  };
}
