import { describe, expect, it } from 'vitest';
import { postgresBed } from '../helpers/postgres-bed.js';
import { settlePostgresJobs } from '../helpers/postgres-queues.js';

/**
 * The job detail reads its jsonb columns as PostgreSQL's JSON text (no parse
 * in the driver): what it answers must be what BullMQ's own Job reads from
 * the same row, key order and number spelling included; its other columns
 * come in the same JSON object (one field for the driver), numbers as numbers.
 */
const bed = postgresBed();

const awkward = {
  zeta: 1,
  alpha: { nested: [1, 2.5, -0.125, 1e-7, 1e21], empty: {}, none: null },
  text: 'é 😀 \u2028 "quoted" \\ back',
  flag: true,
  big: 2 ** 53 + 1,
  list: [[], [{}], 'x'],
};

describe('job detail on PostgreSQL, jsonb columns read as text', () => {
  it('answers data, options, return value, progress and stack trace as BullMQ reads them', async () => {
    const queue = bed.fixture.queue('awkward');
    const [completed, failed] = await settlePostgresJobs(bed.fixture.bullmq, queue, [
      { name: 'ok', data: awkward },
      { name: 'bad', data: { ...awkward, fail: true } },
    ]);
    const progressed = await queue.getJob(completed!);
    await progressed!.updateProgress({ step: 'é', of: [1, 2], pct: 50.5 });
    for (const id of [completed!, failed!]) {
      const job = await queue.getJob(id);
      const detail = await bed.call('GET', bed.queueUrl('awkward', `/jobs/${id}`));
      expect(detail.status).toBe(200);
      const { data, opts, returnvalue, progress, stacktrace } = detail.body;
      // Byte for byte as serialised: same keys in the same order, same numbers (jsonb spells 1e21 out in full).
      expect(JSON.stringify(data)).toBe(JSON.stringify(job!.data));
      expect(JSON.stringify(returnvalue)).toBe(JSON.stringify(job!.returnvalue ?? null));
      expect(JSON.stringify(progress)).toBe(JSON.stringify(job!.progress));
      expect(stacktrace).toEqual(job!.stacktrace);
      expect(opts).toMatchObject(JSON.parse(JSON.stringify(job!.opts)));
      // The bigint columns come as JSON numbers now: the same integers.
      const { timestamp, processedOn, finishedOn, attemptsMade, delay, priority, name, failedReason } = job!;
      expect(detail.body).toMatchObject({ timestamp, processedOn, finishedOn, attemptsMade, delay, priority, name });
      expect(detail.body.failedReason ?? undefined).toBe(failedReason ?? undefined);
    }
    const ok = await bed.call('GET', bed.queueUrl('awkward', `/jobs/${completed}`));
    expect(ok.body).toMatchObject({ returnvalue: 'ok', progress: { step: 'é', of: [1, 2], pct: 50.5 } });
    expect(ok.body.data.text).toBe(awkward.text);
  });
});
