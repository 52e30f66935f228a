import { FlowProducer, createPostgresBackend } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/jobs.js';
import { postgresBed } from '../helpers/postgres-bed.js';

/** Across-queue retry/remove, flow refs (the tree) and field byte ranges on a PostgreSQL connection. */
const bed = postgresBed();
const across = (action: string, body: unknown) => bed.call('POST', `${bed.app.api}/c/main/jobs/${action}`, body);
const get = (url: string) => bed.call('GET', url);

describe('across-queue retry and remove on PostgreSQL', () => {
  it('counts, retries and removes a status in every matching queue, and as a task', async () => {
    const mailA = await bed.fixture.seed('mail-a', { failed: 2, completed: 1 });
    const mailB = await bed.fixture.seed('mail-b', { failed: 3 });
    const other = await bed.fixture.seed('other', { failed: 1 });
    const queues = { include: ['mail-*'], exclude: [] };
    const dry = await across('retry', { status: 'failed', queues, dryRun: true });
    expect(dry.body).toMatchObject({ dryRun: true, matched: 5, succeeded: 0, done: true });
    expect(dry.body.queues.map((q: { queueName: string }) => q.queueName).sort()).toEqual(['mail-a', 'mail-b']);
    expect((await across('retry', { status: 'failed', queues })).body).toMatchObject({ matched: 5, succeeded: 5 });
    expect(await mailA.getJobCounts('failed', 'waiting')).toMatchObject({ failed: 0, waiting: 2 });
    expect(await mailB.getJobCounts('failed', 'waiting')).toMatchObject({ failed: 0, waiting: 3 });
    expect(await other.getJobCounts('failed')).toMatchObject({ failed: 1 });
    expect((await across('remove', { status: 'waiting', queues })).body).toMatchObject({ succeeded: 5, done: true });
    expect(await mailB.getJobCounts('waiting')).toMatchObject({ waiting: 0 });
    const task = await across('remove', { status: 'failed', queues: { include: ['oth*'], exclude: [] }, async: true });
    expect(task.status).toBe(202);
    const done = await waitFor(async () => {
      await bed.app.services.tasks.runOnce();
      const read = (await get(`${bed.app.api}/c/main/tasks/${task.body.taskId}`)).body;
      return read.state === 'done' ? read : undefined;
    }, 15_000);
    expect(done).toMatchObject({ kind: 'jobs.removeAcross', result: { acted: 1 } });
    expect(await other.getJobCounts('failed')).toMatchObject({ failed: 0 });
  });
});

describe('flow refs and field ranges on PostgreSQL', () => {
  it('answers the tree of a flow: names, states and keys of the parent and its children', async () => {
    const flows = new FlowProducer(bed.fixture.bullmq, createPostgresBackend);
    try {
      const tree = await flows.add({
        name: 'parent',
        queueName: 'flow',
        children: [
          { name: 'child-a', queueName: 'flow', data: {} },
          { name: 'child-b', queueName: 'flow-kids', data: {} },
        ],
      });
      const read = await get(bed.queueUrl('flow', `/jobs/${tree.job.id}/tree`));
      expect(read.status).toBe(200);
      expect(read.body.root).toMatchObject({
        id: tree.job.id,
        queueName: 'flow',
        prefix: 'bullmq',
        key: `bullmq:flow:${tree.job.id}`,
        name: 'parent',
        state: 'waitingChildren',
        childrenTotal: 2,
        truncated: false,
      });
      const children = read.body.root.children.map((node: Record<string, unknown>) => [
        node.name,
        node.queueName,
        node.state,
      ]);
      expect(children.sort()).toEqual([
        ['child-a', 'flow', 'waiting'],
        ['child-b', 'flow-kids', 'waiting'],
      ]);
      expect((await get(bed.queueUrl('flow', '/jobs/404/tree'))).status).toBe(404);
    } finally {
      await flows.close();
    }
  });

  it('reads a field in byte ranges that never cut a character, and 404s what is not there', async () => {
    const queue = await bed.fixture.seed('big', { failed: 1 });
    const data = { text: 'é€😀 naïve '.repeat(40), n: [1, 2, 3] };
    const job = await queue.add('wide', data);
    const field = (id: string, rest: string) => get(bed.queueUrl('big', `/jobs/${id}/fields/${rest}`));
    let text = '';
    let bytes = 0;
    for (let offset: number | null = 0; offset !== null; ) {
      const range = await field(job.id!, `data?offset=${offset}&length=7`);
      expect(range.status).toBe(200);
      expect(range.body.length).toBeLessThanOrEqual(7);
      expect(Buffer.byteLength(range.body.text)).toBe(range.body.length);
      expect(range.body.text).not.toContain('\uFFFD');
      text += range.body.text;
      bytes = range.body.totalLength;
      offset = range.body.nextOffset;
    }
    expect(JSON.parse(text)).toEqual(data);
    expect(Buffer.byteLength(text)).toBe(bytes);
    const [failed] = await queue.getFailed();
    expect((await field(failed!.id!, 'failedReason')).body).toMatchObject({
      text: 'seeded failure',
      totalLength: 14,
      nextOffset: null,
    });
    expect((await field(job.id!, 'returnvalue')).status).toBe(404);
    expect((await field('nope', 'data')).status).toBe(404);
    expect((await get(bed.queueUrl('ghost', '/jobs/1/fields/data'))).status).toBe(404);
    expect((await field(job.id!, `data?offset=${bytes + 1}`)).status).toBe(400);
  });
});
