import { describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { queryDatabase } from '../helpers/postgres.js';
import { seedFailedJobs } from '../tasks/support/failed-jobs.js';
import { claimsOf } from '../tasks/support/task-stage.js';
import { chaosSize, chaosTimeout } from './support/chaos-size.js';
import { recordChaosRow } from './support/chaos-table.js';
import { eventStream, halfSentPost, keepAliveAgent } from './support/http-clients.js';
import { lifecycleStage, logTime } from './support/lifecycle-stage.js';

const streams = chaosSize(20, 500);
const inFlight = 100;
const jobs = chaosSize(4_000, 20_000);
const maxPerSecond = chaosSize(400, 500);
/** How long the in-flight requests stay in flight after the SIGTERM (their bodies' second halves wait this long). */
const requestMs = 1_500;
const queueName = 'sigterm-chaos';

/**
 * Issue 34, item 2: SIGTERM with event streams open, a background task running and requests in
 * flight. The process exits 0 within the longest in-flight request + 2 s; every stream is told to
 * reconnect and ends cleanly; every in-flight request is answered (no reset); the task's lease is
 * released, and a new process resumes it within 2 s of its start.
 */
describe('SIGTERM with event streams, a running task and in-flight requests', () => {
  const stage = lifecycleStage();

  it('exits 0 in order: streams told to reconnect, task handed over, requests answered', {
    timeout: chaosTimeout(),
  }, async () => {
    await seedFailedJobs(stage.redis, stage.prefix, queueName, jobs);
    const first = await stage.startService();
    const queueUrl = `${first.api}/c/main/queues/${queueName}`;
    const accepted = await request(`${queueUrl}/jobs/retry`, {
      method: 'POST',
      body: { status: 'failed', all: true, async: true, maxPerSecond },
    });
    expect(accepted.status).toBe(202);
    const taskId: string = accepted.body.taskId;
    await waitFor(
      async () => (await request(`${first.api}/c/main/tasks/${taskId}`)).body.processed > 0,
      20_000,
      'the task to start',
    );

    const agent = keepAliveAgent();
    const opened = Array.from({ length: streams }, () => eventStream(`${queueUrl}/events`, agent));
    await Promise.all(opened.map((stream) => stream.open));
    const refused = (
      await Promise.all(opened.map((stream) => Promise.race([stream.ended, Promise.resolve(null)])))
    ).filter((end) => end !== null);
    expect(refused.map((end) => `${end!.status} ${end!.error ?? end!.text.slice(0, 200)}`)).toEqual([]);
    const posts = Array.from({ length: inFlight }, (_, n) =>
      halfSentPost(`${queueUrl}/jobs`, { name: 'in-flight', data: { n } }, agent),
    );
    // The service reads every request's headers, then waits for its body.
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const signalledAt = Date.now();
    first.child.kill('SIGTERM');
    setTimeout(() => {
      for (const post of posts) post.finish();
    }, requestMs);
    const [code, answers, ends] = await Promise.all([
      first.exited,
      Promise.all(posts.map((post) => post.answered)),
      Promise.all(opened.map((stream) => stream.ended)),
    ]);
    const exitMs = Date.now() - signalledAt;
    agent.destroy();
    const longestRequestMs = Math.max(...answers.map((answer) => answer.at - signalledAt));
    const resets = answers.filter((answer) => answer.error !== null).length;
    const told = ends.filter((end) => end.error === null && end.text.includes('event: reconnect')).length;

    const [row] = await queryDatabase<{ state: string; lease_holder: string | null; processed: string }>(
      stage.databaseUrl,
      'select state, lease_holder, processed from task where id = $1',
      [taskId],
    );
    const second = await stage.startService();
    const listeningAt = logTime(second, 'bullpen listening')!;
    const claim = await waitFor(
      () => claimsOf(second).find((entry) => entry.taskId === taskId),
      10_000,
      'the new process to claim the task',
    ).catch(() => undefined);
    const resumeMs = claim ? claim.time - listeningAt : Infinity;

    const held =
      code === 0 &&
      exitMs <= longestRequestMs + 2_000 &&
      resets === 0 &&
      told === streams &&
      row?.lease_holder === null &&
      resumeMs <= 2_000;
    recordChaosRow({
      scenario: `SIGTERM: ${streams} SSE streams, a running retry task, ${inFlight} in-flight requests`,
      expected:
        'exit 0 ≤ longest request + 2 s; 0 resets; every stream told to reconnect; task resumed ≤ 2 s after a new start',
      observed: `exit ${code} after ${exitMs} ms (longest request ${longestRequestMs} ms); resets ${resets}; told ${told}/${streams}; task ${row?.state} (${row?.processed}/${jobs}), lease ${row?.lease_holder ?? 'released'}; resumed ${claim ? `${resumeMs} ms after listening` : 'never'}`,
      held,
    });
    expect(code).toBe(0);
    expect(resets).toBe(0);
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    expect(exitMs).toBeLessThanOrEqual(longestRequestMs + 2_000);
    expect(told).toBe(streams);
    expect(row).toMatchObject({ state: 'running', lease_holder: null });
    expect(Number(row!.processed)).toBeLessThan(jobs);
    expect(resumeMs).toBeLessThanOrEqual(2_000);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
