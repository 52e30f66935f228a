import { FlowProducer, Worker, type Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobCountKinds, type JobCounts } from '../../contracts/queues.js';
import { request } from '../helpers/app.js';
import { queueTestBed } from '../helpers/queues.js';

const bed = queueTestBed();
const { fixture } = bed;

/** Names of the listed page, in order. */
const names = (body: { queues: Array<{ name: string }> }) => body.queues.map((queue) => queue.name);
const list = (query: string) => request(`${bed.app.api}/c/main/queues?${query}`);

/** The connection's counts summed here, independently: BullMQ's getJobCounts per queue (and LLEN of the legacy paused list it no longer counts). */
async function countedByBullmq(queues: Queue[]): Promise<JobCounts> {
  const totals = Object.fromEntries(jobCountKinds.map((kind) => [kind, 0])) as JobCounts;
  for (const queue of queues) {
    const counts = await queue.getJobCounts(
      'wait',
      'active',
      'delayed',
      'completed',
      'failed',
      'prioritized',
      'waiting-children',
    );
    totals.waiting += counts.wait!;
    totals.active += counts.active!;
    totals.delayed += counts.delayed!;
    totals.completed += counts.completed!;
    totals.failed += counts.failed!;
    totals.prioritized += counts.prioritized!;
    totals.waitingChildren += counts['waiting-children']!;
    totals.paused += await fixture.redis.llen(`${fixture.prefix}:${queue.name}:paused`);
  }
  return totals;
}

describe('GET /queues?state=…&totals=true against real BullMQ queues', () => {
  const queues: Queue[] = [];
  let release: () => void = () => undefined;
  let worker: Worker;
  let flows: FlowProducer;

  beforeAll(async () => {
    queues.push(
      await bed.seeded('paused-busy', { waiting: 2 }),
      await bed.seeded('paused-empty', { completed: 1 }),
      await bed.seeded('failing', { failed: 2, completed: 1 }),
      await bed.seeded('finished', { completed: 3 }),
      await bed.seeded('waiting', { waiting: 3 }),
      await bed.seeded('delayed', { delayed: 1 }),
      await bed.seeded('prioritized', { prioritized: 1 }),
      bed.openQueue('active'),
      bed.openQueue('parent'),
      bed.openQueue('child'),
    );
    await queues[0]!.pause();
    await queues[1]!.pause();
    // A job a real worker holds: its queue has an active job and nothing else.
    const held = new Promise<void>((resolve) => (release = resolve));
    worker = new Worker('active', () => held, { ...fixture.bullmq, concurrency: 1 });
    bed.closeLater({
      close: async () => {
        release();
        await worker.close();
      },
    });
    const started = new Promise((resolve) => worker.once('active', resolve));
    await queues[7]!.add('hold', {});
    await started;
    // A parent waiting for its child: the parent's queue has nothing to run, the child's has a waiting job.
    flows = new FlowProducer(fixture.bullmq);
    bed.closeLater(flows);
    await flows.add({ name: 'parent', queueName: 'parent', children: [{ name: 'child', queueName: 'child' }] });
  });
  afterAll(() => release());

  const inState = {
    paused: ['paused-busy', 'paused-empty'],
    running: ['active', 'child', 'delayed', 'failing', 'finished', 'parent', 'prioritized', 'waiting'],
    failing: ['failing'],
    idle: ['failing', 'finished', 'parent', 'paused-empty'],
  };
  // With totals the same states are decided from the counts read for them (idle from five counts, not one EXISTS).
  it.each(
    Object.entries(inState).flatMap(
      ([state, expected]) =>
        [
          [state, '', expected],
          [state, '&totals=true', expected],
        ] as const,
    ),
  )('state=%s%s lists exactly the queues in that state', async (state, extra, expected) => {
    const response = await list(`state=${state}&pageSize=100${extra}`);
    expect(response.status).toBe(200);
    expect(names(response.body)).toEqual(expected);
    expect(response.body.total).toBe(expected.length);
  });

  it('answers totals equal to the sum of what BullMQ counts per queue, whatever search and state', async () => {
    const expected = await countedByBullmq(queues);
    expect(expected).toMatchObject({ waiting: 6, active: 1, failed: 2, waitingChildren: 1 });
    const before = Date.now();
    const whole = await list('totals=true');
    expect(whole.body.totals).toEqual(expected);
    // No window here (SERVICE_QUEUE_LIST_CACHE_MS=0): counted for this request.
    expect(Date.parse(whole.body.totalsAt)).toBeGreaterThanOrEqual(before - 1);
    const narrowed = await list('totals=true&state=failing&search=fail&pageSize=1');
    expect(narrowed.body).toMatchObject({ total: 1, totals: expected });
    expect((await list('totals=false')).body).not.toHaveProperty('totals');
    expect((await list('')).body).not.toHaveProperty('totals');
  });

  it('combines a state with name search, a count sort and pages', async () => {
    const first = await list('state=running&sort=waiting&pageSize=2');
    expect(first.body).toMatchObject({ total: 8, totalPages: 4, hasMore: true });
    // waiting: waiting 3, child 1; then every other running queue has 0, by name.
    expect(names(first.body)).toEqual(['waiting', 'child']);
    expect(names((await list('state=running&sort=waiting&pageSize=2&page=2')).body)).toEqual(['active', 'delayed']);
    expect(names((await list('state=running&sort=waiting&order=asc&pageSize=3&totals=true')).body)).toEqual([
      'active',
      'delayed',
      'failing',
    ]);
    const searched = await list('state=idle&search=P&sort=completed');
    expect([names(searched.body), searched.body.total]).toEqual([['paused-empty', 'parent'], 2]);
    expect(names((await list('state=idle&search=P&sort=name&order=desc&totals=true')).body)).toEqual([
      'paused-empty',
      'parent',
    ]);
  });

  it('sees a state change at once (counts are read, not cached)', async () => {
    await queues[0]!.resume();
    expect(names((await list('state=paused')).body)).toEqual(['paused-empty']);
    await queues[0]!.pause();
    expect(names((await list('state=paused')).body)).toEqual(['paused-busy', 'paused-empty']);
  });

  it.each([
    ['state=stopped', 'state'],
    ['totals=maybe', 'totals'],
  ])('answers 400 naming the parameter for %s', async (query, parameter) => {
    const response = await list(query);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringContaining(`${parameter}:`),
      issues: [{ path: [parameter] }],
    });
  });
});
