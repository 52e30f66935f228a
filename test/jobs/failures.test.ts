import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorClassOf, normaliseReason } from '../../routers/jobs/failures/normalise-reason.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { queueUrl, waitFor } from '../helpers/jobs.js';
import { storeFixture } from '../helpers/stores.js';

class InvalidRecipientError extends Error {
  override name = 'InvalidRecipientError';
}
class SmtpTimeoutError extends Error {
  override name = 'SmtpTimeoutError';
}

const fixture = storeFixture();
const queueName = 'mailer';
/** Of 60 jobs: 24 bad recipients, 30 SMTP timeouts, 6 completed. */
const total = 60;
let app: TestApp;
let queue: Queue;
let base: string;
const idsByClass = new Map<string, string[]>();

/** A real Worker fails jobs with two error classes whose messages differ in numbers, addresses and ids. */
async function failThroughWorker(): Promise<void> {
  await queue.addBulk(
    Array.from({ length: total }, (_, n) => ({ name: 'send', data: { n, to: `customer${n}@example.com` } })),
  );
  let settled = 0;
  const worker = new Worker(
    queueName,
    async (job) => {
      const { n, to } = job.data as { n: number; to: string };
      if (n % 10 < 4)
        throw new InvalidRecipientError(
          `recipient "${to}" refused by mx-${n}.example.net: 550 5.1.1 user unknown (order ord-${7000 + n})`,
        );
      if (n % 10 < 9)
        throw new SmtpTimeoutError(
          `connection to smtp.example.com:587 timed out after ${30_000 + n} ms (session 0x${(0xbeef00 + n).toString(16)})`,
        );
      return 'sent';
    },
    { ...fixture.bullmq, concurrency: 8 },
  );
  worker.on('failed', (job, error) => {
    idsByClass.set(error.name, [...(idsByClass.get(error.name) ?? []), job!.id!]);
    settled++;
  });
  worker.on('completed', () => settled++);
  await waitFor(() => settled === total, 20_000, 'the jobs to settle');
  await worker.close();
}

beforeAll(async () => {
  app = await bootApp({ env: fixture.env });
  queue = new Queue(queueName, fixture.bullmq);
  base = queueUrl(app, fixture, queueName);
  await failThroughWorker();
});

afterAll(async () => {
  await queue.close();
  await app.close();
  await fixture.cleanup();
});

type Group = {
  errorClass: string | null;
  reason: string;
  exampleReason: string;
  count: number;
  firstSeen: number;
  lastSeen: number;
  exampleIds: string[];
};

/** Follows the cursor to the end, adding up the groups as a client does. */
async function wholeWindow(query: string): Promise<{ groups: Map<string, Group>; pages: number; scanned: number[] }> {
  const groups = new Map<string, Group>();
  const scanned: number[] = [];
  let cursor: string | null = null;
  do {
    const page: { status: number; body: any } = await request(
      `${base}/failures?${query}${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(page.status).toBe(200);
    scanned.push(page.body.scanned);
    for (const group of page.body.groups as Group[]) {
      const key = `${group.errorClass}|${group.reason}`;
      const known = groups.get(key);
      groups.set(
        key,
        known
          ? { ...known, count: known.count + group.count, exampleIds: [...known.exampleIds, ...group.exampleIds] }
          : group,
      );
    }
    cursor = page.body.cursor;
  } while (cursor);
  return { groups, pages: scanned.length, scanned };
}

describe('GET …/queues/{queueName}/failures (failure triage)', () => {
  it('groups the failed jobs by error class and normalised reason, most frequent first', async () => {
    const { status, body } = await request(`${base}/failures?window=1h`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ scanned: 54, scannedTotal: 54, done: true, cursor: null });
    expect(body.to - body.from).toBe(3_600_000);
    expect(body.groups.map((group: Group) => [group.errorClass, group.count])).toEqual([
      ['SmtpTimeoutError', 30],
      ['InvalidRecipientError', 24],
    ]);
    const [smtp, recipient] = body.groups as Group[];
    expect(smtp!.reason).toBe('connection to smtp.example.com:<n> timed out after <n> ms (session <hex>)');
    expect(recipient!.reason).toBe('recipient "…" refused by <id>.example.net: <n> <n> user unknown (order <id>)');
    expect(recipient!.exampleReason).toMatch(
      /^recipient "customer\d+@example\.com" refused by mx-\d+\.example\.net: 550 5\.1\.1 user unknown \(order ord-\d+\)$/,
    );
    for (const group of [smtp!, recipient!]) {
      expect(group.exampleIds).toHaveLength(5);
      for (const id of group.exampleIds) expect(idsByClass.get(group.errorClass!)).toContain(id);
      expect(group.firstSeen).toBeLessThanOrEqual(group.lastSeen);
      expect(group.lastSeen).toBeLessThanOrEqual(body.to);
      expect(group.firstSeen).toBeGreaterThanOrEqual(body.from);
    }
    // Newest failure first: the first example is the group's latest failure.
    const [first] = await Promise.all([queue.getJob(smtp!.exampleIds[0]!)]);
    expect(first!.finishedOn).toBe(smtp!.lastSeen);
  });

  it('reads a bounded number of jobs per request and continues by cursor, each job counted once', async () => {
    // Jobs that failed in the same millisecond straddle pages: the cursor skips exactly those already read.
    const failed = await queue.getFailed();
    for (const job of failed.slice(0, 20))
      await fixture.redis.zadd(`${fixture.prefix}:${queueName}:failed`, String(failed[0]!.finishedOn), job.id!);
    const { groups, pages, scanned } = await wholeWindow('window=1h&limit=7');
    expect(pages).toBe(8);
    expect(scanned.every((count) => count <= 7)).toBe(true);
    expect([...groups.values()].map((group) => [group.errorClass, group.count]).sort()).toEqual([
      ['InvalidRecipientError', 24],
      ['SmtpTimeoutError', 30],
    ]);
    const seen = [...groups.values()].flatMap((group) => group.exampleIds);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('leaves out jobs that failed before the window, and a job without a stack trace has no class', async () => {
    const [old, traceless] = (await queue.getFailed()).slice(-2);
    await fixture.redis.zadd(`${fixture.prefix}:${queueName}:failed`, String(Date.now() - 2 * 3_600_000), old!.id!);
    await fixture.redis.hdel(`${fixture.prefix}:${queueName}:${traceless!.id}`, 'stacktrace');
    const hour = (await request(`${base}/failures?window=1h`)).body;
    expect(hour.scanned).toBe(53);
    expect(hour.groups.find((group: Group) => group.errorClass === null)).toMatchObject({
      count: 1,
      exampleIds: [traceless!.id],
    });
    const threeHours = (await request(`${base}/failures?window=3h`)).body;
    expect(threeHours.scanned).toBe(54);
  });

  it('refuses a window, limit or cursor it cannot use, with 400', async () => {
    const other = queueUrl(app, fixture, 'other');
    await new Queue('other', fixture.bullmq).add('x', {});
    const cursor = (await request(`${base}/failures?window=1h&limit=1`)).body.cursor;
    for (const [url, field] of [
      [`${base}/failures?window=yesterday`, 'window'],
      [`${base}/failures?limit=5001`, 'limit'],
      [`${other}/failures?cursor=${cursor}`, 'cursor'],
      [`${base}/failures?cursor=not-a-cursor`, 'cursor'],
      [`${base}/failures?window=1h&windw=2h`, 'windw'],
    ] as const) {
      const refused = await request(url);
      expect(refused.status, url).toBe(400);
      // A parameter the route does not take is named as unknown (inputs are strict), not dropped.
      expect(refused.body.code).toBe(field === 'windw' ? 'UNKNOWN_FIELD' : 'VALIDATION_FAILED');
      expect(JSON.stringify(refused.body)).toContain(field);
    }
  });
});

describe('failure reasons, normalised', () => {
  it('replaces numbers, ids, hex, addresses and quoted values, and keeps the words', () => {
    expect(normaliseReason("User 'ada' (id 42) not found")).toBe('User "…" (id <n>) not found');
    expect(normaliseReason("can't reach db-7.internal:5432")).toBe("can't reach <id>.internal:<n>");
    expect(normaliseReason('hash 9f86d081884c7d65 mismatch for 3fa85f64-5717-4562-b3fc-2c963f66afa6')).toBe(
      'hash <hex> mismatch for <uuid>',
    );
    expect(normaliseReason('bounce from bob.smith+x@mail.example.org')).toBe('bounce from <email>');
    expect(normaliseReason('ECONNRESET   after\n2.5 s')).toBe('ECONNRESET after <n> s');
  });

  it('reads the class from the first line of a stack trace', () => {
    expect(errorClassOf('SmtpTimeoutError: timed out')).toBe('SmtpTimeoutError');
    expect(errorClassOf('TypeError')).toBe('TypeError');
    expect(errorClassOf('    at Worker.process (file.js:1:1)')).toBeNull();
    expect(errorClassOf(null)).toBeNull();
  });
});
