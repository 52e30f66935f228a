import { describe, expect, it } from 'vitest';
import { runBullpen, spawnBullpen } from '../helpers/cli.js';
import { waitFor } from '../helpers/jobs.js';
import { queueTestBed } from '../helpers/queues.js';

describe('bullpen on a confirm-protected connection (the CLI against a live server)', () => {
  const bed = queueTestBed({ SERVICE_REDIS_URL_MAIN_PROTECTION: 'confirm' });
  const env = () => ({ BULLPEN_URL: bed.app.url });
  const bullpen = (args: string[]) => runBullpen(args, { env: env() });
  const addWaiting = async (queueName: string, count: number, data: Record<string, unknown> = {}) =>
    (await bed.openQueue(queueName).addBulk(Array.from({ length: count }, () => ({ name: 'send', data })))).map(
      (job) => job.id!,
    );

  it('refuses remove without --confirm, naming the flag to pass; removes with --confirm <queue>', async () => {
    const queue = bed.openQueue('emails');
    const ids = await addWaiting('emails', 3);

    const refused = await bullpen(['remove', 'emails', ids[0]!, ids[1]!]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('send confirmName "emails" (the queue name) with jobs.remove');
    expect(refused.stderr).toContain('(CONNECTION_PROTECTED, HTTP 403)');
    expect(refused.stderr).toMatch(/\n {2}to confirm, run it again with --confirm emails\n$/);

    const wrong = await bullpen(['remove', 'emails', ids[0]!, '--confirm', 'main']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('--confirm emails');
    expect(await queue.getWaitingCount()).toBe(3);

    const confirmed = await bullpen(['remove', 'emails', ids[0]!, ids[1]!, '--confirm', 'emails']);
    expect(confirmed.stderr).toBe('');
    expect(confirmed.code).toBe(0);
    expect(confirmed.stdout).toBe('removed 2 job(s) from emails\n');
    expect((await queue.getWaiting()).map((job) => job.id)).toEqual([ids[2]]);
  });

  it('counts a search without confirmation (a dry run removes nothing), and removes its matches only with --confirm', async () => {
    const queue = bed.openQueue('sms');
    await addWaiting('sms', 4, { customer: 'customer-42' });
    await addWaiting('sms', 2, { customer: 'customer-7' });

    const dry = await bullpen(['remove', 'sms', '--search', 'customer-42', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^would remove 4 job\(s\) matching "customer-42" in sms \(6 jobs scanned\)$/m);

    const refused = await bullpen(['remove', 'sms', '--search', 'customer-42', '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr).error).toMatchObject({
      code: 'CONNECTION_PROTECTED',
      status: 403,
      protection: 'confirm',
      confirmName: 'sms',
    });
    expect(await queue.getWaitingCount()).toBe(6);

    const confirmed = await bullpen(['remove', 'sms', '--search', 'customer-42', '--batch', '3', '--confirm', 'sms']);
    expect(confirmed.code).toBe(0);
    expect(confirmed.stdout).toBe('removed 4 job(s) matching "customer-42" in sms (6 jobs scanned)\n');
    expect((await queue.getWaiting()).map((job) => job.data.customer)).toEqual(['customer-7', 'customer-7']);
  });

  it('asks on a terminal for the queue name, and sends nothing when the answer differs', async () => {
    const queue = bed.openQueue('pushes');
    const ids = await addWaiting('pushes', 2);
    /** Answers the prompt with `answer` once it shows; stdin stays open until the CLI ends. */
    const answered = async (answer: string) => {
      const run = spawnBullpen(['remove', 'pushes', ids[0]!], { env: env(), terminal: true });
      await waitFor(() => run.stdout().includes('Type the queue name to confirm: '), 30_000, 'the confirmation prompt');
      run.child.stdin!.write(`${answer}\n`);
      const result = await run.result;
      return { ...result, stdout: result.stdout.replaceAll('\r\n', '\n') };
    };

    const declined = await answered('emails');
    expect(declined.stdout).toContain(
      'Connection "main" asks destructive actions for confirmation: this removes jobs of "pushes".',
    );
    expect(declined.stdout).toContain('error: confirmation did not match the queue name "pushes": nothing sent');
    expect(declined.code).toBe(1);
    expect(await queue.getWaitingCount()).toBe(2);

    const confirmed = await answered('pushes');
    expect(confirmed.stdout).toContain('removed 1 job(s) from pushes\n');
    expect(confirmed.code).toBe(0);
    expect((await queue.getWaiting()).map((job) => job.id)).toEqual([ids[1]]);
  });

  it('keeps purge working: its typed (or --yes) queue name is the confirmName the connection asks for', async () => {
    const queue = bed.openQueue('letters');
    await addWaiting('letters', 2);
    const purged = await bullpen(['purge', 'letters', '--status', 'waiting', '--yes']);
    expect(purged.stderr).toBe('');
    expect(purged.stdout).toMatch(/^purged 2 job\(s\) from letters/);
    expect(await queue.getWaitingCount()).toBe(0);
  });
});
