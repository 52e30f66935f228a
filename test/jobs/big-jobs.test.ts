import { describe, expect, it } from 'vitest';
import { BodyBudget } from '../../server/http/body-budget.js';
import { request } from '../helpers/app.js';
import { queueUrl } from '../helpers/jobs.js';
import { queueTestBed } from '../helpers/queues.js';

const maxBytes = 1024 * 1024;

/**
 * Issue 34, item 3: a job over SERVICE_MAX_RESPONSE_BYTES answers 422 RESPONSE_TOO_LARGE naming the
 * field route, which reads any field in byte ranges that never cut a character; other answers over
 * the cap are refused the same way; large bodies wait their turn in the body budget.
 */
describe('responses capped by SERVICE_MAX_RESPONSE_BYTES', () => {
  const bed = queueTestBed({ SERVICE_MAX_RESPONSE_BYTES: String(maxBytes) });

  it('refuses a job over the cap, naming the way to read it; reads it back field by field, byte-exact', async () => {
    const queue = bed.openQueue('big-jobs');
    // Two- and four-byte characters, so a range boundary falls inside one.
    const data = { text: 'é🙂x'.repeat(200_000) };
    const job = await queue.add('big', data);
    const base = `${queueUrl(bed.app, bed.fixture, 'big-jobs')}/jobs/${job.id}`;

    const refused = await request(base);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
      maxBytes,
      readInParts: expect.stringContaining('/fields/{field}'),
    });
    const stored = JSON.stringify(data);
    expect(refused.body.fieldBytes.data).toBe(Buffer.byteLength(stored));

    let text = '';
    let reads = 0;
    for (let offset: number | null = 0; offset !== null; reads++) {
      const part = await request(`${base}/fields/data?offset=${offset}&length=300001`);
      expect(part.status).toBe(200);
      expect(part.body.length).toBeLessThanOrEqual(300_001);
      expect(Buffer.byteLength(part.body.text)).toBe(part.body.length);
      text += part.body.text;
      offset = part.body.nextOffset;
    }
    expect(reads).toBeGreaterThanOrEqual(4);
    expect(text).toBe(stored);
    expect((await request(`${base}/fields/returnvalue`)).status).toBe(404);
    expect((await request(`${base}/fields/secret`)).status).toBe(400);
  });

  it('serves a job under the cap whole', async () => {
    const queue = bed.openQueue('big-jobs');
    const job = await queue.add('fits', { text: 'a'.repeat(700_000) });
    const read = await request(`${queueUrl(bed.app, bed.fixture, 'big-jobs')}/jobs/${job.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.text).toHaveLength(700_000);
  });

  it('refuses any other answer over the cap (a range of big log lines) and names smaller ranges', async () => {
    const queue = bed.openQueue('big-logs');
    const job = await queue.add('logged', {});
    for (let line = 0; line < 3; line++) await job.log('b'.repeat(500_000));
    const logs = `${queueUrl(bed.app, bed.fixture, 'big-logs')}/jobs/${job.id}/logs`;
    const refused = await request(`${logs}?start=0&end=2`);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'RESPONSE_TOO_LARGE',
      readInParts: expect.stringContaining('start and end'),
    });
    expect((await request(`${logs}?start=0&end=1`)).status).toBe(200);
  });
});

describe('the body budget', () => {
  it('holds large bodies first come, first served, within its capacity; an abandoned wait leaves the line', async () => {
    const budget = new BodyBudget(10);
    const order: string[] = [];
    const releaseA = await budget.acquire(6);
    const b = budget.acquire(6).then((release) => {
      order.push('b');
      return release;
    });
    const gone = new AbortController();
    const c = budget.acquire(3, gone.signal).then(
      () => order.push('c'),
      () => order.push('c abandoned'),
    );
    const d = budget.acquire(4).then((release) => {
      order.push('d');
      return release;
    });
    gone.abort();
    await c;
    expect(budget.held).toBe(6);
    releaseA();
    const [releaseB, releaseD] = await Promise.all([b, d]);
    expect(order).toEqual(['c abandoned', 'b', 'd']);
    expect(budget.held).toBe(10);
    releaseB();
    releaseB();
    releaseD();
    expect(budget.held).toBe(0);
    // A body larger than the whole budget is served alone.
    const huge = await budget.acquire(50);
    expect(budget.held).toBe(50);
    huge();
  });
});
