import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBullpenClient, type QueueEvent } from '../../client/index.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { storeFixture } from '../helpers/stores.js';

async function collect(
  iterator: AsyncGenerator<QueueEvent>,
  until: (events: QueueEvent[]) => boolean,
): Promise<QueueEvent[]> {
  const events: QueueEvent[] = [];
  for await (const event of iterator) {
    events.push(event);
    if (until(events)) break;
  }
  return events;
}

describe('GET /api/c/:connectionId/queues/:queueName/events (SSE)', () => {
  const store = storeFixture();
  let app: TestApp;
  let queue: Queue;
  const queueName = 'mail outbound/eu%';

  beforeAll(async () => {
    app = await bootApp({ env: store.env, app: { sseHeartbeatMs: 50 } });
    queue = new Queue(queueName, store.bullmq);
    // The stream 404s a queue that does not exist: wait for the meta write the constructor started.
    await queue.getVersion();
  });
  afterAll(async () => {
    await queue.close();
    await app.close();
    await store.cleanup();
  });

  it('streams a worker completing and failing jobs, in order, through the SDK iterator', async () => {
    const client = createBullpenClient({ baseUrl: app.url });
    const controller = new AbortController();
    const stream = client.watchQueue({ connectionId: store.connectionId, queueName, signal: controller.signal });
    const first = stream.next(); // opens the subscription
    await waitFor(() => app.services.events.subscribers === 1);
    const worker = new Worker(
      queueName,
      async (job) => {
        if (job.data.fail) throw new Error('smtp refused');
        return { sent: true };
      },
      store.bullmq,
    );
    const ok = await queue.add('send', { fail: false });
    const bad = await queue.add('send', { fail: true });
    const events = [
      (await first).value as QueueEvent,
      ...(await collect(stream, (seen) => seen.some((e) => e.type === 'failed'))),
    ];
    controller.abort();
    await worker.close();

    const lifecycle = (jobId: string) =>
      events
        .filter((e) => e.jobId === jobId)
        .map((e) => e.type)
        .filter((t) => t !== 'waiting');
    expect(lifecycle(ok.id!)).toEqual(['added', 'active', 'completed']);
    expect(lifecycle(bad.id!)).toEqual(['added', 'active', 'failed']);
    expect(events.find((e) => e.type === 'failed')).toMatchObject({
      jobId: bad.id,
      state: 'failed',
      failedReason: 'smtp refused',
    });
    expect(events.find((e) => e.type === 'completed')!.returnvalue).toBeUndefined();
    const ids = events.map((e) => e.id);
    expect([...ids].sort(compareStreamIds)).toEqual(ids);
  });

  it('shares one feed between subscribers and closes it when the last one leaves', async () => {
    const first = new AbortController();
    const second = new AbortController();
    const client = createBullpenClient({ baseUrl: app.url });
    const a = client.watchQueue({
      connectionId: store.connectionId,
      queueName,
      signal: first.signal,
      includeData: true,
    });
    const b = client.watchQueue({ connectionId: store.connectionId, queueName, signal: second.signal });
    const nextA = a.next();
    const nextB = b.next();
    await waitFor(() => app.services.events.subscribers === 2);
    await queue.add('send', { fail: false });
    expect(((await nextA).value as QueueEvent).type).toBe('added');
    expect(((await nextB).value as QueueEvent).type).toBe('added');
    expect(app.services.events.openFeeds).toBe(1);
    first.abort();
    await waitFor(() => app.services.events.subscribers === 1);
    expect(app.services.events.openFeeds).toBe(1);
    second.abort();
    await waitFor(() => app.services.events.openFeeds === 0);
  });

  it('sends heartbeats on an idle stream', async () => {
    // The queue must exist (a missing one is a 404); its one event predates the subscription.
    const idle = new Queue('idle', store.bullmq);
    await idle.add('before', {});
    await idle.close();
    const controller = new AbortController();
    const response = await fetch(`${app.api}/c/${store.connectionId}/queues/idle/events`, {
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    let text = '';
    while (!text.includes(': heartbeat')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect(text).toContain(': subscribed to idle');
  });

  it('answers an unknown connection with the JSON 404, not a stream', async () => {
    const { status, body } = await request(`${app.api}/c/nope/queues/q/events`);
    expect(status).toBe(404);
    expect(body.code).toBe('NOT_FOUND');
  });

  it('answers a bad query with 400 naming the parameter', async () => {
    const { status, body } = await request(`${app.api}/c/${store.connectionId}/queues/q/events?includeData=perhaps`);
    expect(status).toBe(400);
    expect(body.message).toContain('includeData');
  });
});

function compareStreamIds(a: string, b: string): number {
  const [ams, aseq] = a.split('-').map(Number);
  const [bms, bseq] = b.split('-').map(Number);
  return ams! - bms! || aseq! - bseq!;
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
