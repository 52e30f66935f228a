import type { Queue } from 'bullmq';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reasonHeaderValue } from '../../client/index.js';
import type { AppRouter } from '../../routers/_app.js';
import { loadConfig } from '../../server/config.js';
import { bootApp, persistenceKinds, request, type TestApp } from '../helpers/app.js';
import { runBullpen } from '../helpers/cli.js';
import { connectAgent, toolJson } from '../helpers/mcp.js';
import { queueUrl } from '../helpers/jobs.js';
import { seedQueue } from '../helpers/queues.js';
import { storeFixture } from '../helpers/stores.js';

const reason = 'nettoyage après l’incident #42 — 清理';
const withReason = (text: string) => ({ 'bullpen-reason': reasonHeaderValue(text) });

describe.each(persistenceKinds)('SERVICE_REQUIRE_REASON=destructive (%s persistence)', (persistence) => {
  const fixture = storeFixture();
  let app: TestApp;
  let queue: Queue;
  let base: string;
  const audit = async (action: string) => (await request(`${app.api}/audit?action=${action}`)).body.events;

  beforeAll(async () => {
    app = await bootApp({ persistence, env: { ...fixture.env, SERVICE_REQUIRE_REASON: 'destructive' } });
    base = queueUrl(app, fixture, 'emails');
    queue = await seedQueue(fixture.bullmq, 'emails', { completed: 3, failed: 3 });
  });
  afterAll(async () => {
    await queue?.close();
    await app?.close();
    await fixture.cleanup();
  });

  it('refuses a destructive REST call without a reason (400 REASON_REQUIRED, nothing removed, audited) and takes one in any language', async () => {
    const purge = (headers: Record<string, string> = {}) =>
      request(`${base}/purge`, { method: 'POST', headers, body: { confirmName: 'emails', statuses: ['completed'] } });
    for (const headers of [{}, { 'bullpen-reason': '   ' }] as Array<Record<string, string>>) {
      const refused = await purge(headers);
      expect([refused.status, refused.body]).toEqual([
        400,
        {
          code: 'REASON_REQUIRED',
          setting: 'SERVICE_REQUIRE_REASON',
          requireReason: 'destructive',
          permission: 'queues.purge',
          message:
            'SERVICE_REQUIRE_REASON=destructive: queues.purge needs a reason; send it in the Bullpen-Reason header (MCP: the reason argument; CLI: --reason)',
        },
      ]);
    }
    expect(await queue.getCompletedCount()).toBe(3);
    expect((await audit('queues.purge'))[0]).toMatchObject({
      outcome: 'failure',
      errorCode: 'REASON_REQUIRED',
      reason: null,
    });

    const purged = await purge(withReason(reason));
    expect([purged.status, purged.body.totalRemoved]).toEqual([200, 3]);
    expect(await queue.getCompletedCount()).toBe(0);
    expect((await audit('queues.purge'))[0]).toMatchObject({ outcome: 'success', reason, actor: { kind: 'authless' } });
    const logged = app.logs
      .map((line) => JSON.parse(line))
      .filter((line) => line.event === 'queue.action' && line.action === 'queues.purge');
    expect(logged).toEqual([expect.objectContaining({ outcome: 'done', reason })]);
  });

  it('asks nothing of a store write or a dry run, and keeps a reason given anyway', async () => {
    const paused = await request(`${base}/pause`, { method: 'POST' });
    expect(paused.status).toBe(200);
    await request(`${base}/resume`, {
      method: 'POST',
      headers: {
        'bullpen-reason': 'back to work, see redis://ops:hunter2@10.0.0.5:6379/0 and https://hooks.example/T0/secret',
      },
    });
    const [resumed] = await audit('queues.pause');
    expect(resumed).toMatchObject({
      procedure: 'queues.resume',
      reason: 'back to work, see redis://****:****@10.0.0.5:6379/0 and https://hooks.example/…',
    });
    const dryRun = await request(`${base}/jobs/remove`, {
      method: 'POST',
      body: { query: { q: 'work', status: ['failed'] }, dryRun: true },
    });
    expect([dryRun.status, dryRun.body.matched]).toEqual([200, 3]);
    expect(await queue.getFailedCount()).toBe(3);
  });

  it('asks the same over tRPC, MCP (the reason argument or the header) and the CLI (--reason)', async () => {
    const trpc = (headers: Record<string, string>) =>
      createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.api}/trpc`, headers })] });
    const ids = (await queue.getFailed()).map((job) => job.id!);
    const remove = (headers: Record<string, string>, jobIds: string[]) =>
      trpc(headers).jobs.remove.mutate({ connectionId: fixture.connectionId, queueName: 'emails', jobIds });
    const refused = await remove({}, [ids[0]!]).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TRPCClientError);
    expect((refused as TRPCClientError<AppRouter>).data).toMatchObject({ code: 'REASON_REQUIRED', httpStatus: 400 });
    expect(await queue.getFailedCount()).toBe(3);
    expect((await remove(withReason('duplicate charge'), [ids[0]!])).succeeded).toBe(1);

    const agent = await connectAgent(app, {});
    const args = { connectionId: fixture.connectionId, queueName: 'emails', jobIds: [ids[1]!] };
    expect(toolJson(await agent.callTool({ name: 'jobs_remove', arguments: args }))).toMatchObject({
      code: 'REASON_REQUIRED',
      permission: 'jobs.remove',
    });
    expect(await queue.getFailedCount()).toBe(2);
    const removed = await agent.callTool({ name: 'jobs_remove', arguments: { ...args, reason: 'poison message' } });
    expect(removed.structuredContent).toMatchObject({ succeeded: 1 });
    await agent.close();
    const byHeader = await connectAgent(app, withReason('agent via header'));
    const removedByHeader = await byHeader.callTool({ name: 'jobs_remove', arguments: { ...args, jobIds: [ids[2]!] } });
    expect(removedByHeader.structuredContent).toMatchObject({ succeeded: 1 });
    await byHeader.close();
    const events = await audit('jobs.remove');
    expect(
      events
        .slice(0, 3)
        .map((event: { actor: { kind: string }; reason: string | null }) => [event.actor.kind, event.reason]),
    ).toEqual([
      ['agent', 'agent via header'],
      ['agent', 'poison message'],
      ['agent', null],
    ]);

    const env = { BULLPEN_URL: app.url };
    const withoutReason = await runBullpen(
      ['purge', 'emails', '--status', 'failed', '--yes', '--conn', fixture.connectionId],
      { env },
    );
    expect([withoutReason.code, withoutReason.stderr]).toEqual([1, expect.stringContaining('REASON_REQUIRED')]);
    const cli = await runBullpen(
      ['purge', 'emails', '--status', 'waiting', '--yes', '--conn', fixture.connectionId, '--reason', reason],
      { env },
    );
    expect(cli.code).toBe(0);
    expect((await audit('queues.purge'))[0]).toMatchObject({
      outcome: 'success',
      reason,
      parameters: { statuses: ['waiting'] },
    });
  });
});

describe('SERVICE_REQUIRE_REASON=all-writes', () => {
  const fixture = storeFixture();
  let app: TestApp;
  let queue: Queue;
  beforeAll(async () => {
    app = await bootApp({ env: { ...fixture.env, SERVICE_REQUIRE_REASON: 'all-writes' } });
    queue = await seedQueue(fixture.bullmq, 'emails', { waiting: 1 });
  });
  afterAll(async () => {
    await queue?.close();
    await app?.close();
    await fixture.cleanup();
  });

  it('asks every store write for a reason, and nothing of Bullpen’s own records', async () => {
    const base = queueUrl(app, fixture, 'emails');
    const refused = await request(`${base}/pause`, { method: 'POST' });
    expect([refused.status, refused.body.code, refused.body.requireReason]).toEqual([
      400,
      'REASON_REQUIRED',
      'all-writes',
    ]);
    expect(await queue.isPaused()).toBe(false);
    expect((await request(`${base}/pause`, { method: 'POST', headers: { 'bullpen-reason': 'deploy' } })).status).toBe(
      200,
    );
    expect(await queue.isPaused()).toBe(true);
    const rule = await request(`${app.api}/c/${fixture.connectionId}/alerts/rules`, {
      method: 'POST',
      body: { name: 'backlog', type: 'backlog', threshold: 10, windowMinutes: 5 },
    });
    expect(rule.status).toBe(201);
  });

  it('is read at startup and validated like every variable', () => {
    expect(loadConfig({ SERVICE_AUTHLESS: 'true' }).requireReason).toBe('off');
    expect(() => loadConfig({ SERVICE_AUTHLESS: 'true', SERVICE_REQUIRE_REASON: 'sometimes' })).toThrow(
      /SERVICE_REQUIRE_REASON/,
    );
  });
});
