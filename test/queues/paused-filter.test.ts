import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { storeFixture } from '../helpers/stores.js';

describe('state=paused / state=running and the scrape, from the tracked pause flag', () => {
  const fixture = storeFixture();
  let app: TestApp;
  const queues = ['p-one', 'p-two'].map((name) => new Queue(name, fixture.bullmq));

  const names = async (state: 'paused' | 'running') => {
    const response = await request(`${app.api}/c/main/queues?state=${state}`);
    expect(response.status).toBe(200);
    return (response.body.queues as Array<{ name: string }>).map(({ name }) => name);
  };
  const pausedSample = async (name: string) => {
    const text = await (await fetch(`${app.api}/prometheus`)).text();
    return new RegExp(
      `^bullpen_queue_paused\\{queue="${name}",connection="main",prefix="${fixture.prefix}"\\} (\\d)$`,
      'm',
    ).exec(text)?.[1];
  };

  beforeAll(async () => {
    app = await bootApp({ env: fixture.env });
    for (const queue of queues) await queue.add('job', {});
  });
  afterAll(async () => {
    for (const queue of queues) await queue.close();
    await app.close();
    await fixture.cleanup();
  });

  it('shows a pause and a resume made by another client on the next request', async () => {
    expect(await names('running')).toEqual(['p-one', 'p-two']);
    // The first list started the tracking: let it catch up, so that what follows is answered from it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await names('paused')).toEqual([]);
    expect(await pausedSample('p-two')).toBe('0');

    await queues[1]!.pause(); // a plain BullMQ Queue, not Bullpen
    expect(await names('paused')).toEqual(['p-two']);
    expect(await names('running')).toEqual(['p-one']);
    expect(await pausedSample('p-two')).toBe('1');
    expect(await pausedSample('p-one')).toBe('0');

    await queues[1]!.resume();
    expect(await names('paused')).toEqual([]);
    expect(await pausedSample('p-two')).toBe('0');
  });

  it('writes every sample of a queue with its labels unspaced, state after queue', async () => {
    const text = await (await fetch(`${app.api}/prometheus`)).text();
    const tail = `connection="main",prefix="${fixture.prefix}"`;
    expect(text).toContain(`bullmq_job_count{queue="p-one",state="waiting",${tail}} 1\n`);
    expect(text).toContain(`bullmq_job_completed_total{queue="p-one",${tail}} 0\n`);
    expect(text).toContain(`bullpen_queue_backlog{queue="p-one",${tail}} 1\n`);
    expect(text).toMatch(new RegExp(`^bullpen_queue_oldest_waiting_seconds\\{queue="p-one",${tail}\\} \\d+$`, 'm'));
    expect(text.match(/^# TYPE bullpen_queue_paused gauge$/gm)).toHaveLength(1);
  });
});
