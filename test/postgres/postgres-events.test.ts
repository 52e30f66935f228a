import { Worker, createPostgresBackend } from 'bullmq';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createBullpenClient, type QueueEvent } from '../../client/index.js';
import { eventPollMs } from '../../server/postgres/postgres-event-feed.js';
import { postgresBed } from '../helpers/postgres-bed.js';
import { queryDatabase } from '../helpers/postgres.js';

/**
 * The event stream and the readiness check on a PostgreSQL connection (and one whose server never
 * answers); the connection is read-only, which refuses clearing stack traces and lets the reads through.
 */
const bed = postgresBed({
  SERVICE_POSTGRES_URL_DOWN: 'postgres://postgres@127.0.0.1:1/nothing',
  SERVICE_POSTGRES_URL_MAIN_PROTECTION: 'read-only',
});

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function collect(iterator: AsyncGenerator<QueueEvent>, until: (events: QueueEvent[]) => boolean) {
  const events: QueueEvent[] = [];
  for await (const event of iterator) {
    events.push(event);
    if (until(events)) break;
  }
  return events;
}

/** Sessions of the test database LISTENing on BullMQ's events channel (the service's, not BullMQ's workers'). */
const listeners = async () =>
  (
    await queryDatabase<{ n: number }>(
      bed.fixture.database.url,
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'bullpen' and query = 'LISTEN bullmq_events'`,
    )
  )[0]!.n;

describe('the event stream on PostgreSQL', () => {
  const watch = (queueName: string, signal: AbortSignal, includeData = false) =>
    createBullpenClient({ baseUrl: bed.app.url }).watchQueue({ connectionId: 'main', queueName, signal, includeData });

  it('streams a worker completing and failing jobs, in order, from BullMQ’s event table', async () => {
    const queue = bed.fixture.queue('mail');
    await queue.add('warm-up', {});
    const controller = new AbortController();
    const stream = watch('mail', controller.signal, true);
    const first = stream.next();
    await waitFor(() => bed.app.services.events.subscribers === 1);
    // Both jobs are added before the worker starts, so their lifecycles come in id order (two writers at
    // once can commit out of id order: the test below holds that every event still arrives, once).
    const ok = await queue.add('send', { fail: false });
    const bad = await queue.add('send', { fail: true });
    const worker = new Worker(
      'mail',
      async (job) => {
        if (job.data.fail) throw new Error('smtp refused');
        return { sent: true };
      },
      bed.fixture.bullmq,
      createPostgresBackend as never,
    );
    const events = [
      (await first).value as QueueEvent,
      ...(await collect(stream, (seen) => seen.some((e) => e.type === 'failed'))),
    ];
    controller.abort();
    await worker.close();
    const lifecycle = (jobId: string) =>
      events.filter((e) => e.jobId === jobId && e.type !== 'waiting').map((e) => e.type);
    expect(lifecycle(ok.id!)).toEqual(['added', 'active', 'completed']);
    expect(lifecycle(bad.id!)).toEqual(['added', 'active', 'failed']);
    expect(events.find((e) => e.type === 'failed')).toMatchObject({
      jobId: bad.id,
      state: 'failed',
      failedReason: 'smtp refused',
    });
    expect(events.find((e) => e.type === 'completed')!.returnvalue).toEqual({ sent: true });
    const ids = events.map((e) => Number(e.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    await waitFor(() => bed.app.services.events.openFeeds === 0);
  });

  it('reads each queue once for all its subscribers, over one LISTEN session for the connection, closed with the last feed', async () => {
    await bed.fixture.queue('shared').add('before', {});
    await bed.fixture.queue('other').add('before', {});
    const controllers = [new AbortController(), new AbortController(), new AbortController()];
    const streams = [
      watch('shared', controllers[0]!.signal),
      watch('shared', controllers[1]!.signal),
      watch('other', controllers[2]!.signal),
    ];
    const next = streams.map((stream) => stream.next());
    await waitFor(() => bed.app.services.events.subscribers === 3);
    expect(bed.app.services.events.openFeeds).toBe(2);
    expect(await listeners()).toBe(1);
    await bed.fixture.queue('shared').add('now', {});
    await bed.fixture.queue('other').add('now', {});
    for (const event of next) expect(((await event).value as QueueEvent).type).toBe('added');
    for (const controller of controllers) controller.abort();
    await waitFor(() => bed.app.services.events.openFeeds === 0);
    await waitFor(async () => (await listeners()) === 0);
  });

  it(`delivers an event that came without a NOTIFY within ${eventPollMs} ms (BullMQ coalesces them under load)`, async () => {
    await bed.fixture.queue('quiet').add('before', {});
    const controller = new AbortController();
    const stream = watch('quiet', controller.signal);
    const next = stream.next();
    await waitFor(() => bed.app.services.events.subscribers === 1);
    const sent = Date.now();
    await queryDatabase(
      bed.fixture.database.url,
      `insert into bullmq.event (queue, event, data, created_at_ms) values ('quiet', 'removed', '{"jobId":"7","prev":"waiting"}', 0)`,
    );
    expect((await next).value).toMatchObject({ type: 'removed', jobId: '7', prev: 'waiting', queueName: 'quiet' });
    expect(Date.now() - sent).toBeLessThan(eventPollMs + 1000);
    controller.abort();
  });

  it('delivers, once each, two events whose transactions commit out of id order (the lower id last)', async () => {
    await bed.fixture.queue('late').add('before', {});
    const controller = new AbortController();
    const stream = watch('late', controller.signal);
    const giveUp = setTimeout(() => controller.abort(), 20_000); // an event never delivered fails, not hangs
    const next = stream.next();
    await waitFor(() => bed.app.services.events.subscribers === 1);
    const [early, late] = [new pg.Client(bed.fixture.database.url), new pg.Client(bed.fixture.database.url)];
    await Promise.all([early.connect(), late.connect()]);
    // Each transaction takes its transaction id first, as BullMQ's functions do by writing the job before the event.
    const publish = async (client: pg.Client, jobId: string) => {
      await client.query(`begin; select pg_current_xact_id()`);
      const { rows } = await client.query<{ id: string }>(
        `insert into bullmq.event (queue, event, data, created_at_ms) values ('late', 'removed', $1, 0) returning id::text`,
        [{ jobId, prev: 'waiting' }],
      );
      return rows[0]!.id;
    };
    const commit = (client: pg.Client) => client.query(`select pg_notify('bullmq_events', 'late'); commit`);
    const lowId = await publish(late, 'committed-last');
    const highId = await publish(early, 'committed-first');
    expect(BigInt(lowId)).toBeLessThan(BigInt(highId));
    await commit(early);
    expect((await next).value).toMatchObject({ id: highId, jobId: 'committed-first' });
    await new Promise((resolve) => setTimeout(resolve, eventPollMs + 200)); // a poll reads past the higher id
    await commit(late);
    await Promise.all([early.end(), late.end()]);
    const rest = await collect(stream, (seen) => seen.some((event) => event.jobId === 'committed-last'));
    await new Promise((resolve) => setTimeout(resolve, eventPollMs + 200)); // more reads of the window
    await bed.fixture.queue('late').add('after', {});
    rest.push(...(await collect(stream, (seen) => seen.some((event) => event.type === 'waiting'))));
    clearTimeout(giveUp);
    controller.abort();
    const removals = rest.filter((event) => event.type === 'removed').map((event) => event.jobId);
    expect(removals).toEqual(['committed-last']);
    expect(new Set(rest.map((event) => event.id)).size).toBe(rest.length);
  });

  it('keeps streaming when its LISTEN session is terminated: the poll reads on and the next tick listens again', async () => {
    const queue = bed.fixture.queue('resilient');
    await queue.add('before', {});
    const controller = new AbortController();
    const stream = watch('resilient', controller.signal);
    const first = stream.next();
    await waitFor(() => bed.app.services.events.subscribers === 1);
    const listening = `from pg_stat_activity where datname = current_database() and query = 'LISTEN bullmq_events'`;
    const pids = async () =>
      (await queryDatabase<{ pid: number }>(bed.fixture.database.url, `select pid ${listening}`)).map((row) => row.pid);
    const [dropped] = await pids();
    await queryDatabase(bed.fixture.database.url, `select pg_terminate_backend(pid) ${listening}`);
    await queue.add('after-drop', {});
    expect((await first).value).toMatchObject({ type: 'added', queueName: 'resilient' });
    await waitFor(async () => {
      const now = await pids();
      return now.length === 1 && now[0] !== dropped;
    }, eventPollMs * 3);
    controller.abort();
  });

  it('answers 404 for a queue that is not there, not a stream', async () => {
    const { status, body } = await bed.call('GET', bed.queueUrl('ghost', '/events'));
    expect(status).toBe(404);
    expect(body.code).toBe('NOT_FOUND');
  });
});

describe('readiness with PostgreSQL connections', () => {
  it('pings each environment connection’s database: the one up answers, the one down is named', async () => {
    const { status, body } = await bed.call('GET', `${bed.app.api}/ready`);
    expect(status).toBe(503);
    expect(body.code).toBe('STORE_UNAVAILABLE');
    expect(body.message).toMatch(/the store of connection "down" \(.+\) does not answer/);
    expect(body.checks.stores).toEqual([
      { connectionId: 'down', ok: false, error: expect.any(String) },
      { connectionId: 'main', ok: true },
    ]);
  });
});

describe('protection of a read-only PostgreSQL connection', () => {
  it('refuses clearing stack traces (nothing changed) and answers the triage, tree and insights', async () => {
    const queue = bed.fixture.queue('guarded');
    const job = await queue.add('kept', {});
    const refused = await bed.call('DELETE', bed.queueUrl('guarded', `/jobs/${job.id}/stacktraces?keep=0`));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'CONNECTION_PROTECTED', protection: 'read-only' });
    for (const path of ['/failures?window=1h', `/jobs/${job.id}/tree`, '/history/insights?window=1h'])
      expect((await bed.call('GET', bed.queueUrl('guarded', path))).status, path).toBe(200);
  });
});
