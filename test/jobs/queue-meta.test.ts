import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { queueUrl } from '../helpers/jobs.js';
import { queueTestBed } from '../helpers/queues.js';

const bed = queueTestBed();
const { fixture } = bed;

describe('the meta hash of a queue', () => {
  it('is not created by reading a queue that does not exist', async () => {
    for (const suffix of ['/jobs?status=waiting', '/jobs/1', '/metrics']) {
      const response = await request(`${queueUrl(bed.app, fixture, 'typo')}${suffix}`);
      expect([suffix, response.status, response.body.code]).toEqual([suffix, 404, 'NOT_FOUND']);
    }
    expect(await fixture.redis.keys(`${fixture.prefix}:typo:*`)).toEqual([]);
  });

  it('is written when adding a job creates the queue, as a BullMQ producer writes it', async () => {
    const added = await request(`${queueUrl(bed.app, fixture, 'fresh')}/jobs`, {
      method: 'POST',
      body: { name: 'first' },
    });
    expect(added.status).toBe(201);
    expect(await fixture.redis.hget(`${fixture.prefix}:fresh:meta`, 'version')).toMatch(/^bullmq:/);
  });
});
