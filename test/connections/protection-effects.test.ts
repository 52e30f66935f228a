import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { asBrowser, bearer, signUp } from '../helpers/auth.js';
import { runBullpen } from '../helpers/cli.js';
import { seedQueue } from '../helpers/queues.js';
import { redisUrl, storeFixture } from '../helpers/stores.js';

/** What each protection does to real jobs: refused calls change nothing, allowed ones act. */
describe('protected connections acting on real queues', () => {
  const source = storeFixture();
  const target = storeFixture();
  let app: TestApp;
  let queue: Queue;
  let owner: Record<string, string>;
  let ownerToken: string;
  let operator: Record<string, string>;
  const ids: Record<'prod' | 'archive', string> = { prod: '', archive: '' };

  beforeAll(async () => {
    app = await bootApp();
    owner = asBrowser(app, await signUp(app, 'owner'));
    const token = (role: string) =>
      request(`${app.api}/auth/tokens`, { method: 'POST', headers: owner, body: { name: role, role } });
    ownerToken = (await token('owner')).body.token;
    operator = bearer((await token('operator')).body.token);
    for (const [name, fixture] of [
      ['prod', source],
      ['archive', target],
    ] as const) {
      ids[name] = (
        await request(`${app.api}/connections`, {
          method: 'POST',
          headers: owner,
          body: { name, url: `${redisUrl}/0`, prefixes: [fixture.prefix] },
        })
      ).body.id;
    }
    queue = await seedQueue(source.bullmq, 'emails', { failed: 6 });
  });
  afterAll(async () => {
    await queue?.close();
    await app?.close();
    await Promise.all([source.cleanup(), target.cleanup()]);
  });

  const protect = async (name: 'prod' | 'archive', protection: string) =>
    expect(
      (await request(`${app.api}/connections/${ids[name]}`, { method: 'PATCH', headers: owner, body: { protection } }))
        .body.protection,
    ).toBe(protection);
  const jobs = (action: string, body: unknown, headers = owner) =>
    request(`${app.api}/c/prod/queues/emails/jobs/${action}`, { method: 'POST', headers, body });
  const failedIds = async () => (await queue.getFailed()).map((job) => job.id!).sort();

  it('read-only: refuses a retry (audited as denied), the jobs stay failed; reads and the queue detail still answer', async () => {
    await protect('prod', 'read-only');
    const before = await failedIds();
    const retry = await jobs('retry', { jobIds: before });
    expect(retry.status).toBe(403);
    expect(retry.body).toMatchObject({
      code: 'CONNECTION_PROTECTED',
      protection: 'read-only',
      permission: 'jobs.retry',
    });
    expect(retry.body.message).toBe(
      'Connection "prod" is read-only (protection: read-only): jobs.retry would change the store; only reads are allowed',
    );
    expect(await failedIds()).toEqual(before);
    const detail = await request(`${app.api}/c/prod/queues/emails`, { headers: owner });
    expect([detail.status, detail.body.protection, detail.body.jobCounts.failed]).toEqual([200, 'read-only', 6]);
    const audit = (await request(`${app.api}/audit?action=jobs.retry`, { headers: owner })).body.events;
    expect(audit[0]).toMatchObject({ outcome: 'denied', errorCode: 'CONNECTION_PROTECTED', queueName: 'emails' });
  });

  it('read-only: the CLI shows the refusal with its setting and exits 1', async () => {
    const run = await runBullpen(['pause', 'emails', '--conn', 'prod'], {
      env: { BULLPEN_URL: app.url, BULLPEN_TOKEN: ownerToken },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'Connection "prod" is read-only (protection: read-only): queues.pause would change the store',
    );
    expect(run.stderr).toContain('CONNECTION_PROTECTED, HTTP 403');
    expect(await queue.isPaused()).toBe(false);
  });

  it('a move into a read-only connection is refused, the job stays in the source and no target queue appears', async () => {
    await protect('prod', 'none');
    await protect('archive', 'read-only');
    const [first] = await failedIds();
    const move = await jobs('move', { to: { queueName: 'emails-dlq', connectionId: 'archive' }, jobIds: [first] });
    expect(move.status).toBe(403);
    expect(move.body).toMatchObject({
      code: 'CONNECTION_PROTECTED',
      connectionId: ids.archive,
      permission: 'jobs.move',
    });
    expect(move.body.message).toContain('Connection "archive" is read-only');
    expect(await failedIds()).toContain(first);
    expect(await target.redis.exists(`${target.prefix}:emails-dlq:meta`)).toBe(0);
  });

  it('confirm: a remove without the queue name removes nothing; with it, the job goes', async () => {
    await protect('prod', 'confirm');
    const [first] = await failedIds();
    const bare = await jobs('remove', { jobIds: [first] });
    expect(bare.status).toBe(403);
    expect(bare.body).toMatchObject({ code: 'CONNECTION_PROTECTED', protection: 'confirm', confirmName: 'emails' });
    expect(bare.body.message).toBe(
      'Connection "prod" asks destructive actions for confirmation (protection: confirm): send confirmName "emails" (the queue name) with jobs.remove',
    );
    expect(await failedIds()).toContain(first);
    const confirmed = await jobs('remove', { jobIds: [first], confirmName: 'emails' });
    expect(confirmed.body).toMatchObject({ succeeded: 1, failed: 0 });
    expect(await failedIds()).not.toContain(first);
    // A write that removes nothing needs no confirmation.
    expect(
      (await request(`${app.api}/c/prod/queues/emails/pause`, { method: 'POST', headers: owner, body: {} })).body
        .isPaused,
    ).toBe(true);
  });

  it('admin: an operator may not remove, an owner may', async () => {
    await protect('prod', 'admin');
    const [first] = await failedIds();
    const asOperator = await jobs('remove', { jobIds: [first] }, operator);
    expect(asOperator.status).toBe(403);
    expect(asOperator.body.message).toBe(
      'Connection "prod" leaves destructive actions to admins (protection: admin): jobs.remove needs the admin role, yours is operator',
    );
    expect(await failedIds()).toContain(first);
    // Writes that remove nothing keep their own permission.
    expect((await jobs('retry', { jobIds: [first] }, operator)).body).toMatchObject({ succeeded: 1 });
    const [next] = await failedIds();
    expect((await jobs('remove', { jobIds: [next] }, bearer(ownerToken))).body).toMatchObject({ succeeded: 1 });
    expect(await failedIds()).not.toContain(next);
  });
});
