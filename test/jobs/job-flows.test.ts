import { FlowProducer } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { queueUrl } from '../helpers/jobs.js';
import { app, base, fixture, queueName, useFailedJob } from './support/failed-job.js';

/** Flows: a parent's children and a child's parent in the detail, and the bounded job tree. */
useFailedJob();

describe('flows', () => {
  let flows: FlowProducer;
  let parentId: string;
  beforeAll(async () => {
    flows = new FlowProducer(fixture.bullmq);
    const tree = await flows.add({
      name: 'assemble',
      queueName,
      data: {},
      children: [
        { name: 'wheel', queueName: 'parts', data: { n: 1 } },
        { name: 'wheel', queueName: 'parts', data: { n: 2 } },
        { name: 'frame', queueName: 'parts', data: {}, children: [{ name: 'weld', queueName: 'welding', data: {} }] },
      ],
    });
    parentId = tree.job.id!;
  });
  afterAll(() => flows.close());

  it('shows children in the parent and the parent in a child', async () => {
    const { body: parent } = await request(`${base}/jobs/${parentId}`);
    expect(parent.state).toBe('waitingChildren');
    expect(parent.children.counts).toEqual({ processed: 0, unprocessed: 3, failed: 0, ignored: 0 });
    expect(parent.children.truncated).toBe(false);
    const names = parent.children.items
      .map((child: { name: string; queueName: string }) => `${child.queueName}/${child.name}`)
      .sort();
    expect(names).toEqual(['parts/frame', 'parts/wheel', 'parts/wheel']);
    const wheel = parent.children.items.find((child: { name: string }) => child.name === 'wheel');
    expect(wheel).toMatchObject({ prefix: fixture.prefix, state: 'waiting' });
    const { body: child } = await request(`${queueUrl(app, fixture, 'parts')}/jobs/${wheel.id}`);
    expect(child.parent).toMatchObject({
      id: parentId,
      queueName,
      prefix: fixture.prefix,
      name: 'assemble',
      state: 'waitingChildren',
    });
  });

  it('returns the tree, bounded in depth and breadth', async () => {
    const { body: full } = await request(`${base}/jobs/${parentId}/tree`);
    expect(full.nodes).toBe(5);
    const frame = full.root.children.find((node: { name: string }) => node.name === 'frame');
    expect(frame).toMatchObject({ childrenTotal: 1, truncated: false, state: 'waitingChildren' });
    expect(frame.children[0]).toMatchObject({ name: 'weld', queueName: 'welding', childrenTotal: 0, children: [] });

    const { body: shallow } = await request(`${base}/jobs/${parentId}/tree?depth=1&maxChildren=2`);
    expect(shallow.nodes).toBe(3);
    expect(shallow.root).toMatchObject({ childrenTotal: 3, truncated: true });
    for (const node of shallow.root.children) expect(node.children).toEqual([]);
    const bad = await request(`${base}/jobs/${parentId}/tree?depth=11`);
    expect([bad.status, bad.body.message]).toEqual([400, expect.stringContaining('depth')]);
  });
});
