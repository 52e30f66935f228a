import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { base, failedId, queue, useFailedJob } from './support/failed-job.js';

/** A job's log lines (ranges, clearing) and its stack traces, one per failed attempt. */
useFailedJob();

describe('logs and stack traces', () => {
  it('reads a range of log lines with the total count', async () => {
    const { body } = await request(`${base}/jobs/${failedId}/logs?start=4&end=5`);
    expect(body).toEqual({ logs: ['attempt 1 line 4', 'attempt 2 line 0'], count: 10 });
    const bad = await request(`${base}/jobs/${failedId}/logs?start=0&end=5000`);
    expect([bad.status, bad.body.message]).toEqual([400, expect.stringContaining('1000')]);
  });

  it('returns one stack trace per failed attempt', async () => {
    const { body } = await request(`${base}/jobs/${failedId}/stacktraces`);
    expect(body.attemptsMade).toBe(2);
    expect(body.failedReason).toBe('card declined on attempt 2');
    expect(body.stacktraces).toHaveLength(2);
    expect(body.stacktraces[0]).toMatch(/^Error: card declined on attempt 1\n\s+at /);
  });

  it('clears logs, keeping the newest lines when asked', async () => {
    const job = await queue.add('logged', {});
    for (let line = 0; line < 6; line++) await job.log(`line ${line}`);
    const kept = await request(`${base}/jobs/${job.id}/logs?keep=2`, { method: 'DELETE' });
    expect([kept.status, kept.body]).toEqual([200, { success: true, id: job.id, count: 2 }]);
    expect((await queue.getJobLogs(job.id!)).logs).toEqual(['line 4', 'line 5']);
    const cleared = await request(`${base}/jobs/${job.id}/logs`, { method: 'DELETE' });
    expect(cleared.body).toEqual({ success: true, id: job.id, count: 0 });
  });
});
