import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { queueTestBed } from '../helpers/queues.js';

/**
 * Every destructive route, given a body that is not what it asks for
 * (null, booleans or strings for numbers, a missing or wrong confirmName),
 * answers 400 and removes nothing: every key of the queue is still there.
 */
const bed = queueTestBed();
const { fixture, seeded } = bed;
const keysOf = async (queue: string) => (await fixture.redis.keys(`${fixture.prefix}:${queue}:*`)).sort();
const post = (queue: string, action: string, body: unknown, method = 'POST') =>
  request(`${bed.app.api}/c/main/queues/${queue}${action}`, { method, body });

describe.each([
  ['clean', '/clean', { status: 'delayed', gracePeriod: null, limit: true }],
  ['clean', '/clean', { status: 'delayed', gracePeriod: '', limit: '5' }],
  ['purge', '/purge', { statuses: ['all'] }],
  ['purge', '/purge', { statuses: ['all'], confirmName: 'other' }],
  ['obliterate', '/obliterate', {}],
  ['obliterate', '/obliterate', { confirmName: 'other' }],
  ['delete', '', { confirmName: 'other' }],
])('%s with %j', (_name, action, body) => {
  it('answers 400 and removes nothing', async () => {
    const queue = `q${Math.random().toString(36).slice(2, 8)}`;
    await seeded(queue, { completed: 1, delayed: 3, waiting: 2 });
    const before = await keysOf(queue);
    const response = await post(queue, action, body, action === '' ? 'DELETE' : 'POST');
    expect(response.status).toBe(400);
    expect(['VALIDATION_FAILED', 'CONFIRMATION_MISMATCH']).toContain(response.body.code);
    expect(await keysOf(queue)).toEqual(before);
    expect(await fixture.redis.zcard(`${fixture.prefix}:${queue}:delayed`)).toBe(3);
  });
});
