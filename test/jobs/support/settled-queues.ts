import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll } from 'vitest';
import { bootApp, request, type TestApp } from '../../helpers/app.js';
import { waitFor } from '../../helpers/jobs.js';
import { storeFixture, type StoreFixture } from '../../helpers/stores.js';

/**
 * The service over a store fixture for test/jobs/bulk-jobs.test.ts, and queues whose jobs a real
 * Worker settled. Exported bindings are live: set once `useBulkApp()`'s beforeAll ran.
 */
// Made in the beforeAll: with the suite's shared workers (isolate: false) this module outlives one test file.
export let fixture: StoreFixture;
export let app: TestApp;

export const post = (url: string, body: unknown) => request(url, { method: 'POST', body });

/** A queue whose worker fails jobs with data.fail and completes the others, then stops. */
export async function settledQueue(
  name: string,
  jobs: Array<{ name: string; fail?: boolean }>,
): Promise<{ queue: Queue; ids: Record<string, string> }> {
  const queue = new Queue(name, fixture.bullmq);
  const added = await queue.addBulk(jobs.map((job) => ({ name: job.name, data: { fail: job.fail ?? false } })));
  const worker = new Worker(
    name,
    async (job) => {
      if (job.data.fail) throw new Error(`${job.name} failed`);
      return 'done';
    },
    { ...fixture.bullmq, concurrency: 5 },
  );
  await waitFor(
    async () => (await queue.getJobCountByTypes('completed', 'failed')) === jobs.length,
    15_000,
    'jobs to settle',
  );
  await worker.close();
  return { queue, ids: Object.fromEntries(added.map((job) => [job.name, job.id!])) };
}

export const states = (queue: Queue, ids: string[]) => Promise.all(ids.map((id) => queue.getJobState(id)));

/** Boots the service before the file's tests; tears it and the store down after. */
export function useBulkApp(): void {
  beforeAll(async () => {
    fixture = storeFixture();
    app = await bootApp({ env: fixture.env });
  });
  afterAll(async () => {
    await app.close();
    await fixture.cleanup();
  });
}
