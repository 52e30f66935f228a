import { describe, expect, it } from 'vitest';
import { movedOpts } from '../../routers/jobs/move-jobs.js';
import { droppedOptions } from '../../routers/jobs/moved-job.js';

/** What a moved job's options must be: the stored ones parsed, less the dropped top-level keys, with the new id last. */
function expected(readOpts: string, targetId: string): string {
  const opts = JSON.parse(readOpts) as Record<string, unknown>;
  for (const key of droppedOptions) delete opts[key];
  return JSON.stringify({ ...opts, jobId: targetId });
}

/** Options as BullMQ stores them (JSON.stringify of the job's options, short names included). */
const stored = [
  {},
  { attempts: 0 },
  { attempts: 3, removeOnComplete: { age: 3600, count: 10 }, removeOnFail: true, kl: 50 },
  { priority: 2, lifo: true, sizeLimit: 1024, tm: { omc: true }, label: 'é ü \u2028 "quoted" \\ back' },
  { attempts: 5, backoff: { type: 'exponential', delay: 1000 } },
  { delay: 5000, jobId: 'custom-1', attempts: 3 },
  { de: { id: 'd1', ttl: 100 }, priority: 1 },
  { repeat: { every: 1000 }, repeatJobKey: 'k', prevMillis: 17, timestamp: 1_700_000_000_000 },
  { parent: { id: 'p', queue: 'bull:q' }, fpof: true },
  { note: 'mentions "delay" in a value only' },
].map((opts) => JSON.stringify(opts));

describe("a moved job's options", () => {
  it.each(stored)('are the stored ones less the dropped keys, with the new id: %s', (readOpts) => {
    for (const targetId of ['src-1', 'q%3Aname-x', 'with "quote" and \\ slash']) {
      const moved = movedOpts(readOpts, targetId);
      expect(moved).toBe(expected(readOpts, targetId));
      expect(JSON.parse(moved).jobId).toBe(targetId);
    }
  });

  it('keeps a nested option that shares a dropped name (a backoff delay) and drops the top-level one', () => {
    const moved = JSON.parse(movedOpts(JSON.stringify({ delay: 10, backoff: { type: 'fixed', delay: 99 } }), 't'));
    expect(moved).toEqual({ backoff: { type: 'fixed', delay: 99 }, jobId: 't' });
  });
});
