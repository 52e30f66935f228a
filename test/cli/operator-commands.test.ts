import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { runBullpen } from '../helpers/cli.js';
import { waitFor } from '../helpers/jobs.js';
import { repoRoot } from '../helpers/process.js';
import { queueTestBed } from '../helpers/queues.js';
import { failJobs } from '../alerts/support/alert-fixtures.js';

/** The commands issue 35 adds, run as an operator runs them (stdout a pipe): failures, edit, alerts. */
const bed = queueTestBed({ SERVICE_SAMPLE_INTERVAL_SECONDS: '5' });
const bullpen = (args: string[], input?: string) =>
  runBullpen(args, { env: { BULLPEN_URL: bed.app.url }, ...(input === undefined ? {} : { input }) });
const api = (route: string, init: Parameters<typeof request>[1] = {}) => request(`${bed.app.api}${route}`, init);

class InvalidRecipientError extends Error {
  override name = 'InvalidRecipientError';
}
class SmtpTimeoutError extends Error {
  override name = 'SmtpTimeoutError';
}

/** A reason longer than any table cell: the triage prints it whole. */
const longTimeout = (n: number) =>
  `connection to smtp-relay.eu-west.example.com:587 timed out after ${30_000 + n} ms while the relay was still greeting us; the message stays queued for the next attempt`;

describe('bullpen failures', () => {
  it('groups the failed jobs of real workers by error class and reason, reasons printed whole', async () => {
    const queue = bed.openQueue('outbox');
    await queue.addBulk(Array.from({ length: 12 }, (_, n) => ({ name: 'send', data: { n } })));
    let settled = 0;
    const worker = new Worker(
      'outbox',
      async (job) => {
        const n = job.data.n as number;
        throw n % 3 === 0
          ? new InvalidRecipientError(`no mailbox "user${n}@example.com"`)
          : new SmtpTimeoutError(longTimeout(n));
      },
      { ...bed.fixture.bullmq, concurrency: 4 },
    );
    worker.on('failed', () => settled++);
    await waitFor(() => settled === 12, 15_000, 'the jobs to fail');
    await worker.close();

    const run = await bullpen(['failures', 'outbox', '--window', '1h']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^outbox: 12 failed job\(s\) from .+, 2 group\(s\)$/m);
    expect(run.stdout).toMatch(/^8 {2}SmtpTimeoutError {2}first \d{4}-.+Z {2}last \d{4}-.+Z$/m);
    expect(run.stdout).toMatch(/^4 {2}InvalidRecipientError {2}/m);
    expect(run.stdout).toContain(
      '   reason:  connection to smtp-relay.eu-west.example.com:<n> timed out after <n> ms while the relay was still greeting us; the message stays queued for the next attempt\n',
    );
    expect(run.stdout).toMatch(
      /^ {3}example: connection to smtp-relay\.eu-west\.example\.com:587 timed out after 300\d\d ms while the relay was still greeting us; the message stays queued for the next attempt$/m,
    );
    expect(run.stdout).toContain('   reason:  no mailbox "…"\n');
    expect(run.stdout).toMatch(/^ {3}jobs: {4}(\d+ ){4}\d+$/m);

    const json = JSON.parse((await bullpen(['failures', 'outbox', '--window', '1h', '--json'])).stdout);
    expect(json.groups.map((group: { errorClass: string; count: number }) => [group.errorClass, group.count])).toEqual([
      ['SmtpTimeoutError', 8],
      ['InvalidRecipientError', 4],
    ]);
    expect(json).toMatchObject({ scanned: 12, done: true });
  });

  it('refuses a window it cannot read, with the usage exit code', async () => {
    const run = await bullpen(['failures', 'outbox', '--window', 'a week']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--window takes a span such as 30m, 24h or 7d/);
  });
});

describe('bullpen edit', () => {
  it('sets fields of the data in place, replaces it from a file or stdin, and previews with --dry-run', async () => {
    const queue = bed.openQueue('invoices');
    const job = await queue.add('bill', {
      to: 'old@example.com',
      retries: 1,
      address: { city: 'Lyon' },
      lines: [{ sku: 'a' }],
    });
    const set = await bullpen([
      'edit',
      'invoices',
      job.id!,
      '--set',
      'to=ada@example.com',
      '--set',
      'retries=3',
      '--set',
      'address.zip=01234',
      '--set',
      'lines.0.sku=b',
    ]);
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(new RegExp(`^updated the data of job ${job.id} in invoices \\(waiting\\):`));
    expect((await queue.getJob(job.id!))!.data).toEqual({
      to: 'ada@example.com',
      retries: 3,
      address: { city: 'Lyon', zip: '01234' },
      lines: [{ sku: 'b' }],
    });

    const preview = await bullpen(['edit', 'invoices', job.id!, '--set', 'retries=9', '--dry-run']);
    expect(JSON.parse(preview.stdout)).toMatchObject({ retries: 9 });
    expect((await queue.getJob(job.id!))!.data.retries).toBe(3);

    const file = path.join(repoRoot, 'test-artifacts', `fixed-${process.pid}.json`);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, '{"to": "file@example.com"}');
    expect((await bullpen(['edit', 'invoices', job.id!, '--data', `@${file}`])).code).toBe(0);
    expect((await queue.getJob(job.id!))!.data).toEqual({ to: 'file@example.com' });
    await rm(file, { force: true });
    expect(
      (
        await bullpen(
          ['edit', 'invoices', job.id!, '--data', '@-', '--set', 'via=stdin'],
          '{"to": "stdin@example.com"}',
        )
      ).code,
    ).toBe(0);
    expect((await queue.getJob(job.id!))!.data).toEqual({ to: 'stdin@example.com', via: 'stdin' });
  });

  it('names what is wrong: no change given, JSON that is not JSON, a job that is not there', async () => {
    const none = await bullpen(['edit', 'invoices', '1']);
    expect([none.code, none.stderr]).toEqual([2, 'give the new data with --data, or fields with --set path=value\n']);
    const bad = await bullpen(['edit', 'invoices', '1', '--data', '{to: x}']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^--data is not JSON: /);
    const missing = await bullpen(['edit', 'invoices', 'no-such-job', '--set', 'a=1']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/NOT_FOUND, HTTP 404/);
  });
});

describe('bullpen alerts', () => {
  it('lists rules, destinations and the events a rule fired, and acknowledges one', async () => {
    const destination = await api('/alerts/destinations', {
      method: 'POST',
      body: { type: 'slack', name: 'ops channel', url: 'http://127.0.0.1:9/services/T000/B000/secret-path' },
    });
    expect(destination.status).toBe(201);
    const rule = await api('/c/main/alerts/rules', {
      method: 'POST',
      body: {
        name: 'payments failing',
        type: 'failed_count',
        threshold: 2,
        windowMinutes: 5,
        queues: { include: ['payments*'], exclude: ['payments-test'] },
      },
    });
    expect(rule.status).toBe(201);
    await bed.app.services.history.sampleOnce();
    await failJobs(bed, 'payments', 2);
    await bed.app.services.history.sampleOnce();

    const rules = await bullpen(['alerts', 'rules']);
    expect(rules.code).toBe(0);
    expect(rules.stdout).toMatch(
      new RegExp(
        `^${rule.body.id}\\s+payments failing\\s+failed_count\\s+2\\s+5m\\s+payments\\* !payments-test\\s+0\\s+enabled$`,
        'm',
      ),
    );
    const destinations = await bullpen(['alerts', 'destinations']);
    expect(destinations.stdout).toMatch(
      new RegExp(`^${destination.body.id}\\s+slack\\s+ops channel\\s+http://127\\.0\\.0\\.1:9/…`, 'm'),
    );
    expect(destinations.stdout).not.toContain('secret-path');

    const events = await bullpen(['alerts', 'events', '--state', 'firing']);
    expect(events.code).toBe(0);
    const [eventId] = /^(\S+)\s+payments failing\s+firing\s+payments\s+2 \/ 2\s/m.exec(events.stdout)?.slice(1) ?? [];
    expect(eventId).toBeDefined();
    const ack = await bullpen(['alerts', 'ack', eventId!]);
    expect(ack.code).toBe(0);
    expect(ack.stdout).toMatch(
      new RegExp(
        `^acknowledged alert event ${eventId} \\(firing, payments\\) at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ$`,
        'm',
      ),
    );
    const listed = JSON.parse((await bullpen(['alerts', 'events', '--json'])).stdout);
    expect(listed.events.find((event: { id: string }) => event.id === eventId).acknowledgedAt).not.toBeNull();
  });

  it('refuses what it cannot do with the usage exit code', async () => {
    const unknown = await bullpen(['alerts', 'silence']);
    expect([unknown.code, unknown.stderr]).toEqual([
      2,
      'bullpen alerts takes one of rules, destinations, events, ack, snooze, got "silence"\n',
    ]);
    expect((await bullpen(['alerts', 'ack'])).code).toBe(2);
    expect((await bullpen(['alerts', 'rules', '--state', 'firing'])).code).toBe(2);
  });
});

describe('bullpen move', () => {
  it("keeps each job's name and creation time in the target queue; the move itself is in the audit log", async () => {
    const source = bed.openQueue('receipts-dead-letter');
    const created = await source.add('send-receipt', { order: 7 });
    await new Promise((resolve) => setTimeout(resolve, 50)); // a move now would stamp a later time
    const run = await bullpen(['move', 'receipts-dead-letter', '--to', 'receipts', created.id!]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('moved 1 job(s) from receipts-dead-letter to receipts (main)\n');
    const [moved] = await bed.openQueue('receipts').getJobs(['waiting']);
    expect(moved).toMatchObject({
      id: `receipts-dead-letter-${created.id}`,
      name: 'send-receipt',
      data: { order: 7 },
      timestamp: created.timestamp,
    });
    const audit = await api('/audit?action=jobs.move');
    expect(audit.status).toBe(200);
    expect(audit.body.events[0]).toMatchObject({
      action: 'jobs.move',
      queueName: 'receipts-dead-letter',
      outcome: 'success',
      parameters: { jobIds: [created.id], to: { queueName: 'receipts' } },
    });
  });
});
