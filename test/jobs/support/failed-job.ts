import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll } from 'vitest';
import { bootApp, type TestApp } from '../../helpers/app.js';
import { queueUrl, waitFor } from '../../helpers/jobs.js';
import { storeFixture, type StoreFixture } from '../../helpers/stores.js';

/**
 * The service over a store fixture, and its queue `detail` in which one job
 * (`flaky`, two attempts) failed twice through a real Worker, writing five
 * log lines an attempt. The job files of test/jobs/ on one job's detail,
 * logs, additions and flows share it. Exported bindings are live: set once
 * `useFailedJob()`'s beforeAll ran.
 */
// Made in the beforeAll: with the suite's shared workers (isolate: false) this module outlives one test file.
export let fixture: StoreFixture;
export const queueName = 'detail';
export let app: TestApp;
export let queue: Queue;
/** The queue's URL: `${base}/jobs/...`. */
export let base: string;
export let failedId: string;

/** Boots the service and fails the job before the file's tests; tears both down after. */
export function useFailedJob(): void {
  beforeAll(async () => {
    fixture = storeFixture();
    app = await bootApp({ env: fixture.env });
    base = queueUrl(app, fixture, queueName);
    queue = new Queue(queueName, fixture.bullmq);
    const job = await queue.add('flaky', { task: 'charge' }, { attempts: 2 });
    failedId = job.id!;
    const worker = new Worker(
      queueName,
      async (current) => {
        for (let line = 0; line < 5; line++) await current.log(`attempt ${current.attemptsMade + 1} line ${line}`);
        throw new Error(`card declined on attempt ${current.attemptsMade + 1}`);
      },
      fixture.bullmq,
    );
    await waitFor(async () => (await queue.getJobState(failedId)) === 'failed', 15_000, 'the job to fail twice');
    await worker.close();
  });

  afterAll(async () => {
    await queue.close();
    await app.close();
    await fixture.cleanup();
  });
}
