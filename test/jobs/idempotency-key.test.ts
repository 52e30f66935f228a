import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { sql } from '../helpers/auth.js';
import { queueUrl } from '../helpers/jobs.js';
import { queueTestBed } from '../helpers/queues.js';

/** `Idempotency-Key` on job adds and task creation, against both databases (the key's row settles races). */
describe.each(['embedded', 'server'] as const)('Idempotency-Key (%s persistence)', (persistence) => {
  const bed = queueTestBed({}, { persistence });
  const jobsOf = (queueName: string) => `${queueUrl(bed.app, bed.fixture, queueName)}/jobs`;
  const add = (queueName: string, key: string, body: unknown = { name: 'charge', data: { amount: 5 } }) =>
    request(jobsOf(queueName), { method: 'POST', headers: { 'idempotency-key': key }, body });
  const jobCount = async (queueName: string) =>
    await bed.openQueue(queueName).getJobCountByTypes('waiting', 'delayed', 'prioritized');

  it('answers a retry with the first answer, status and body, and adds nothing', async () => {
    const queueName = `idem-seq-${randomUUID()}`;
    const key = randomUUID();
    const first = await add(queueName, key);
    const retry = await add(queueName, key);
    expect(first.status).toBe(201);
    expect({ status: retry.status, body: retry.body, location: retry.headers.get('location') }).toEqual({
      status: 201,
      body: first.body,
      location: first.headers.get('location'),
    });
    expect(retry.headers.get('idempotency-replayed')).toBe('true');
    expect(first.headers.get('idempotency-replayed')).toBeNull();
    expect(await jobCount(queueName)).toBe(1);
  });

  it('makes one job of identical adds sent at once', async () => {
    const queueName = `idem-race-${randomUUID()}`;
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 6 }, () => add(queueName, key)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(201));
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(await jobCount(queueName)).toBe(1);
  });

  it('refuses the same key with another body (422 IDEMPOTENCY_KEY_REUSED), changing nothing', async () => {
    const queueName = `idem-other-${randomUUID()}`;
    const key = randomUUID();
    expect((await add(queueName, key)).status).toBe(201);
    const other = await add(queueName, key, { name: 'charge', data: { amount: 500 } });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', message: expect.stringMatching(/new key/) });
    expect(await jobCount(queueName)).toBe(1);
    // Another key, or no key, is another request.
    expect((await add(queueName, randomUUID(), { name: 'charge', data: { amount: 500 } })).status).toBe(201);
    expect(await jobCount(queueName)).toBe(2);
  });

  it('keeps nothing of a failed first request: its retry runs', async () => {
    const queueName = `idem-fail-${randomUUID()}`;
    const key = randomUUID();
    expect((await add(queueName, key, { name: 'charge', attempts: 'three' })).status).toBe(400);
    expect((await add(queueName, key)).status).toBe(201);
    expect(await jobCount(queueName)).toBe(1);
  });

  it('forgets a key after 24 hours: the same key then adds again', async () => {
    const queueName = `idem-expiry-${randomUUID()}`;
    const key = randomUUID();
    const first = await add(queueName, key);
    await sql(bed.app, `update "idempotency_record" set "expires_at" = ${Date.now() - 1}`);
    const later = await add(queueName, key);
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(first.body.id);
    expect(later.headers.get('idempotency-replayed')).toBeNull();
    expect(await jobCount(queueName)).toBe(2);
  });

  it('creates one task for retried task creations, and names it in Location', async () => {
    const queueName = `idem-task-${randomUUID()}`;
    await bed.seeded(queueName, { failed: 3 });
    const key = randomUUID();
    const retry = () =>
      request(`${queueUrl(bed.app, bed.fixture, queueName)}/jobs/retry`, {
        method: 'POST',
        headers: { 'idempotency-key': key },
        body: { status: 'failed', all: true, async: true },
      });
    const [one, two] = await Promise.all([retry(), retry()]);
    const three = await retry();
    expect([one.status, two.status, three.status]).toEqual([202, 202, 202]);
    expect(new Set([one.body.taskId, two.body.taskId, three.body.taskId]).size).toBe(1);
    expect(three.headers.get('location')).toBe(`/api/c/${bed.fixture.connectionId}/tasks/${one.body.taskId}`);
    const tasks = await request(`${bed.app.api}/c/${bed.fixture.connectionId}/tasks`);
    expect(tasks.body.tasks.filter((task: { queueName: string }) => task.queueName === queueName)).toHaveLength(1);
  });

  it('refuses a malformed key with 400', async () => {
    const answer = await add(`idem-bad-${randomUUID()}`, 'x'.repeat(256));
    expect(answer).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_FAILED', message: expect.stringMatching(/Idempotency-Key/) },
    });
  });
});
