import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BullpenError, createBullpenClient, isBullpenError } from '../../client/index.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { storeFixture } from '../helpers/stores.js';

const store = storeFixture();
let app: TestApp;
let queue: Queue;

beforeAll(async () => {
  app = await bootApp({ env: { ...store.env, SERVICE_QUEUE_LIST_CACHE_MS: '0' } });
  queue = new Queue('orders', store.bullmq);
  await queue.add('charge', { amount: 5 });
});

afterAll(async () => {
  await queue.close();
  await app.close();
  await store.cleanup();
});

async function rejection(call: Promise<unknown>): Promise<BullpenError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(BullpenError);
  return error as BullpenError;
}

describe('createBullpenClient against a live server', () => {
  it('makes typed calls', async () => {
    const client = createBullpenClient({ baseUrl: `${app.url}/` });
    const { connections } = await client.connections.list.query();
    expect(connections.map((connection) => connection.id)).toEqual(['main']);
    const list = await client.queues.list.query({ connectionId: 'main' });
    expect(list.queues).toEqual([
      expect.objectContaining({ name: 'orders', jobCounts: expect.objectContaining({ waiting: 1 }) }),
    ]);
  });

  it('rejects with BullpenError carrying the code, HTTP status, route fields and input issues', async () => {
    const client = createBullpenClient({ baseUrl: app.url });
    const missing = await rejection(
      client.jobs.get.query({ connectionId: 'main', queueName: 'orders', jobId: 'nope' }),
    );
    expect(isBullpenError(missing)).toBe(true);
    expect(missing).toMatchObject({ name: 'BullpenError', code: 'NOT_FOUND', status: 404 });

    const busy = await rejection(
      client.queues.delete.mutate({ connectionId: 'main', queueName: 'orders', confirmName: 'orders' }),
    );
    expect(busy).toMatchObject({
      code: 'QUEUE_NOT_EMPTY',
      status: 409,
      details: { jobCounts: expect.objectContaining({ waiting: 1 }) },
    });

    const invalid = await rejection(
      client.queues.purge.mutate({
        connectionId: 'main',
        queueName: 'orders',
        confirmName: 'orders',
        statuses: ['stuck' as 'failed'],
      }),
    );
    expect(invalid).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect(invalid.issues?.[0]?.path).toEqual(['statuses', 0]);
    expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 1 });
  });

  it('reports an unreachable service as NETWORK_ERROR', async () => {
    const client = createBullpenClient({ baseUrl: 'http://127.0.0.1:9' });
    expect(await rejection(client.connections.list.query())).toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
  });

  it('sends the token as a bearer header, with the extra headers, on procedure calls and the event stream', async () => {
    const seen: Array<{ url: string; authorization: string | null; organization: string | null }> = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      seen.push({
        url: String(input),
        authorization: headers.get('authorization'),
        organization: headers.get('x-organization-id'),
      });
      return fetch(input, init);
    };
    const organization = (await app.trpc.system.session.query()).activeOrganization!.id;
    const client = createBullpenClient({
      baseUrl: app.url,
      token: 'bp_secret',
      headers: { 'x-organization-id': organization },
      fetch: recordingFetch,
    });
    await client.connections.list.query();
    const stop = new AbortController();
    const events = client.watchQueue({ connectionId: 'main', queueName: 'orders', signal: stop.signal });
    const first = events.next(); // opens the stream
    await waitFor(() => app.services.events.subscribers === 1, 10_000, 'the stream to open');
    await queue.add('charge', { amount: 6 });
    await first;
    stop.abort();
    expect(seen).toHaveLength(2);
    expect(seen[1]!.url).toContain('/api/c/main/queues/orders/events');
    for (const request of seen) expect(request).toMatchObject({ authorization: 'Bearer bp_secret', organization });
  });
});
