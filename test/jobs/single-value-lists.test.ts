import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { failJobs, queueTestBed } from '../helpers/queues.js';

/** Lists of enum values take one value alone (docs/api.md, request conventions); test/contract/conventions.test.ts finds every such list. */
describe('a single value where a list of enum values goes', () => {
  const bed = queueTestBed();
  const retry = (queueName: string, body: unknown) =>
    request(`${bed.app.api}/c/main/queues/${queueName}/jobs/retry`, { method: 'POST', body });

  it('selects as the one-element list does: query.status "failed", query.in "data"', async () => {
    const queueName = `single-${randomUUID()}`;
    await failJobs(bed.fixture.bullmq, bed.openQueue(queueName), [
      { customer: 'ada' },
      { customer: 'grace' },
      { customer: 'ada' },
    ]);
    const single = await retry(queueName, { query: { q: 'ada', in: 'data', status: 'failed' }, dryRun: true });
    const listed = await retry(queueName, { query: { q: 'ada', in: ['data'], status: ['failed'] }, dryRun: true });
    expect(single.status).toBe(200);
    expect(single.body).toMatchObject({ matched: 2, done: true });
    expect({ ...single.body, sampleIds: [...single.body.sampleIds].sort() }).toEqual({
      ...listed.body,
      sampleIds: [...listed.body.sampleIds].sort(),
    });
  });

  it('refuses a value outside the enum in either form, naming the allowed ones', async () => {
    await bed.seeded('single-refused', { failed: 1 });
    for (const status of ['failing', ['failed', 'failing']]) {
      const answer = await retry('single-refused', { query: { q: 'ada', status }, dryRun: true });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(/query\.status.*expected one of failed, completed, or a list of them/);
    }
  });

  it('keeps purge statuses a JSON array, as the specification fixes', async () => {
    await bed.seeded('single-purge', { failed: 1 });
    const answer = await request(`${bed.app.api}/c/main/queues/single-purge/purge`, {
      method: 'POST',
      body: { confirmName: 'single-purge', statuses: 'failed' },
    });
    expect(answer.status).toBe(400);
    expect(await bed.openQueue('single-purge').getJobCountByTypes('failed')).toBe(1);
  });
});
