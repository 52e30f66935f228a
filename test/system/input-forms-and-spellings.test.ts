import { FlowProducer, Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { queueUrl } from '../helpers/jobs.js';
import { queueTestBed } from '../helpers/queues.js';

const bed = queueTestBed();
const { fixture } = bed;
const url = (queueName: string) => queueUrl(bed.app, fixture, queueName);

describe('ids, fields and audit filters (rule 5)', () => {
  it('takes bulk jobIds as strings or non-negative integers, and refuses other numbers', async () => {
    const queue = await bed.seeded('numeric-ids', { failed: 2 });
    const [first, second] = (await queue.getFailed()).map((job) => job.id!);
    const retried = await request(`${url('numeric-ids')}/jobs/retry`, {
      method: 'POST',
      body: { jobIds: [Number(first), second] },
    });
    expect(retried.status).toBe(200);
    expect(retried.body.results.map((result: { jobId: string }) => result.jobId).sort()).toEqual(
      [first, second].sort(),
    );
    expect(retried.body.succeeded).toBe(2);
    for (const bad of [-1, 1.5, true, null]) {
      const refused = await request(`${url('numeric-ids')}/jobs/remove`, { method: 'POST', body: { jobIds: [bad] } });
      expect(refused.status).toBe(400);
      expect(refused.body.issues[0].path[0]).toBe('jobIds');
    }
  });

  it('accepts fields=id, listing ids only', async () => {
    await bed.seeded('fields-id', { waiting: 2 });
    const response = await request(`${url('fields-id')}/jobs?status=waiting&fields=id`);
    expect(response.status).toBe(200);
    expect(response.body.jobs).toHaveLength(2);
    for (const job of response.body.jobs)
      expect(Object.keys(job).sort()).toEqual(['id', 'truncated', 'truncatedFields']);
  });

  it('filters the audit trail by a date, a datetime and an action family; an unknown action is a 400 listing the valid ones', async () => {
    await bed.seeded('audited', { waiting: 1 });
    expect((await request(`${url('audited')}/pause`, { method: 'POST' })).status).toBe(200);
    expect((await request(`${url('audited')}/jobs`, { method: 'POST', body: { name: 'audited' } })).status).toBe(201);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const byDay = await request(`${bed.app.api}/audit?from=${today}&to=${tomorrow}`);
    expect(byDay.status).toBe(200);
    expect(byDay.body.events.map((event: { action: string }) => event.action)).toEqual(
      expect.arrayContaining(['queues.pause', 'jobs.add']),
    );
    const future = await request(`${bed.app.api}/audit?from=${tomorrow}`);
    expect(future.body.events).toEqual([]);
    const family = await request(`${bed.app.api}/audit?action=queues.&from=${today}T00:00:00Z`);
    expect(family.status).toBe(200);
    const actions = family.body.events.map((event: { action: string }) => event.action);
    expect(actions).toContain('queues.pause');
    expect(actions.every((action: string) => action.startsWith('queues.'))).toBe(true);
    const unknown = await request(`${bed.app.api}/audit?action=purge`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/queues\.purge/);
    expect(unknown.body.issues[0].path).toEqual(['action']);
  });
});

describe('one spelling per concept (rule 7)', () => {
  it('names the waiting-for-children status waitingChildren in lists, details and counts', async () => {
    const flows = new FlowProducer(fixture.bullmq);
    bed.closeLater(flows);
    const { job: parent } = await flows.add({
      name: 'parent',
      queueName: 'flowing',
      children: [{ name: 'child', queueName: 'flowing-children' }],
    });
    const listed = await request(`${url('flowing')}/jobs?status=waitingChildren`);
    expect(listed.status).toBe(200);
    expect(listed.body.jobs.map((job: { id: string; state: string }) => [job.id, job.state])).toEqual([
      [parent.id, 'waitingChildren'],
    ]);
    expect((await request(`${url('flowing')}/jobs/${parent.id}`)).body.state).toBe('waitingChildren');
    expect((await request(url('flowing'))).body.jobCounts.waitingChildren).toBe(1);
    expect((await request(`${url('flowing')}/jobs?status=waiting-children`)).status).toBe(400);
  });

  it("gives a worker's own name as `name` in the queue detail and /workers, the client name apart", async () => {
    const queue = await bed.seeded('named-workers', {});
    const worker = new Worker(queue.name, async () => undefined, { ...fixture.bullmq, name: 'emails-worker' });
    bed.closeLater(worker);
    await worker.waitUntilReady();
    const detail = await request(url('named-workers'));
    expect(detail.body.workers.list).toEqual([
      expect.objectContaining({
        name: 'emails-worker',
        clientName: `${fixture.prefix}:${Buffer.from('named-workers').toString('base64')}:w:emails-worker`,
      }),
    ]);
    const workers = await request(`${bed.app.api}/c/${fixture.connectionId}/workers`);
    const listed = workers.body.workers.filter((entry: { queueName: string }) => entry.queueName === 'named-workers');
    expect(listed.map((entry: { name: string; clientName: string }) => [entry.name, entry.clientName])).toEqual([
      ['emails-worker', detail.body.workers.list[0].clientName],
    ]);
  });

  it('answers POST …/jobs with one reading of the new job: state and fields agree', async () => {
    const queue = await bed.seeded('read-after-add', {});
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const worker = new Worker(queue.name, () => held, { ...fixture.bullmq, concurrency: 50 });
    bed.closeLater({
      close: async () => {
        release();
        await worker.close();
      },
    });
    await worker.waitUntilReady();
    const answers = [];
    for (let index = 0; index < 10; index++) {
      answers.push(
        (await request(`${url('read-after-add')}/jobs`, { method: 'POST', body: { name: `job-${index}` } })).body,
      );
    }
    for (const answer of answers) {
      expect(answer.state === 'active').toBe(answer.processedOn !== null);
      expect(['active', 'waiting']).toContain(answer.state);
    }
  });
});
