import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireLease } from '../../server/persistence/lease.js';
import { totalsOf, type ConnectionSample, type QueuePoint } from '../../server/history/collect-sample.js';
import { removeExpiredSamples } from '../../server/history/retention.js';
import { rollupMs, writeSample } from '../../server/history/write-sample.js';
import { bootApp, persistenceKinds, request, type TestApp } from '../helpers/app.js';
import { storeFixture } from '../helpers/stores.js';

const day = 24 * 60 * 60_000;

function sampleAt(at: number, figures: Partial<QueuePoint>): ConnectionSample {
  const point: QueuePoint = {
    prefix: 'bull',
    queueName: 'billing',
    waiting: 0,
    active: 0,
    delayed: 0,
    failed: 0,
    completed: 0,
    completedDelta: 0,
    failedDelta: 0,
    oldestWaitingSeconds: 0,
    paused: false,
    workers: 0,
    ...figures,
  };
  return {
    at,
    queues: [point],
    totals: totalsOf([point]),
    store: { up: true, usedMemory: 1000, maxMemory: 0, clients: 3, opsPerSecond: 9 },
  };
}

const countRows = async (app: TestApp, table: string, resolution: string) =>
  Number(
    (
      await app.services.persistence
        .fork()
        .execute<Array<{ n: number }>>(`select count(*) as n from ${table} where resolution = ?`, [resolution])
    )[0]!.n,
  );

describe.each(persistenceKinds)('history roll-ups, retention and the lease (%s)', (persistence) => {
  const fixture = storeFixture();
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({ persistence, env: { ...fixture.env, SERVICE_REDIS_URL_MAIN_PREFIX: 'bull' } });
  });
  afterAll(async () => {
    await app.close();
    await fixture.cleanup();
  });

  it('folds samples into 15-minute roll-ups on write: latest counts, summed deltas, worst age', async () => {
    const bucket = Math.floor((Date.now() - 3 * day) / rollupMs) * rollupMs;
    const em = app.services.persistence.fork();
    await writeSample(
      em,
      'main',
      sampleAt(bucket + 60_000, { waiting: 5, completedDelta: 2, oldestWaitingSeconds: 100 }),
    );
    await writeSample(
      em,
      'main',
      sampleAt(bucket + 120_000, { waiting: 7, completedDelta: 3, oldestWaitingSeconds: 50 }),
    );

    const from = new Date(bucket - rollupMs).toISOString();
    const to = new Date(bucket + 2 * rollupMs).toISOString();
    const queue = await request(`${app.api}/c/main/queues/billing/history?from=${from}&to=${to}`);
    expect(queue.status).toBe(200);
    expect(queue.body.stepSeconds).toBe(900);
    expect(queue.body.points).toEqual([
      expect.objectContaining({
        at: new Date(bucket).toISOString(),
        waiting: 7,
        completedDelta: 5,
        oldestWaitingSeconds: 100,
      }),
    ]);
    const connection = await request(`${app.api}/c/main/history?from=${from}&to=${to}`);
    expect(connection.body.points).toEqual([
      expect.objectContaining({ waiting: 7, completedDelta: 5, queues: 1, up: true, clients: 3 }),
    ]);
  });

  it('drops raw samples after a day and roll-ups after the retention', async () => {
    const em = app.services.persistence.fork();
    await writeSample(em, 'main', sampleAt(Date.now() - 1000, { waiting: 1 }));
    expect(await countRows(app, 'queue_sample', 'raw')).toBe(3);
    await removeExpiredSamples(em, 14);
    expect(await countRows(app, 'queue_sample', 'raw')).toBe(1);
    expect(await countRows(app, 'connection_sample', '15m')).toBe(2);
    await removeExpiredSamples(em, 2);
    expect(await countRows(app, 'queue_sample', '15m')).toBe(1);
    expect(await countRows(app, 'connection_sample', '15m')).toBe(1);
  });

  it('writes a sample of many queues slice by slice, the event loop turning in between (a synchronous SQLite write would hold it)', async () => {
    const points = Array.from(
      { length: 1000 },
      (_, i): QueuePoint => ({ ...sampleAt(0, {}).queues[0]!, queueName: `q${i}`, waiting: i }),
    );
    const sample = { ...sampleAt(Date.now(), {}), queues: points, totals: totalsOf(points) };
    let turns = 0;
    let writing = true;
    const turn = () => {
      if (!writing) return;
      turns++;
      setImmediate(turn);
    };
    setImmediate(turn);
    await writeSample(app.services.persistence.fork(), 'sliced', sample);
    writing = false;
    expect(turns).toBeGreaterThanOrEqual(4);
    const stored = await app.services.persistence
      .fork()
      .execute<Array<{ n: number; waiting: number }>>(
        "select count(*) as n, sum(waiting) as waiting from queue_sample where connection_id = 'sliced' and resolution = 'raw'",
      );
    expect([Number(stored[0]!.n), Number(stored[0]!.waiting)]).toEqual([1000, (999 * 1000) / 2]);
  });

  it('gives a lease to one holder at a time, and to another once it expires', async () => {
    const fork = () => app.services.persistence.fork();
    const now = Date.now();
    expect(await acquireLease(fork(), 'test-lease', 'a', 1000, now)).toBe(true);
    expect(await acquireLease(fork(), 'test-lease', 'b', 1000, now + 10)).toBe(false);
    expect(await acquireLease(fork(), 'test-lease', 'a', 1000, now + 500)).toBe(true);
    expect(await acquireLease(fork(), 'test-lease', 'b', 1000, now + 1600)).toBe(true);
    expect(await acquireLease(fork(), 'test-lease', 'a', 1000, now + 1700)).toBe(false);
    const racers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => acquireLease(fork(), 'raced-lease', `r${i}`, 60_000)),
    );
    expect(racers.filter(Boolean)).toHaveLength(1);
  });
});

describe('history in two replicas on one PostgreSQL', () => {
  const fixture = storeFixture();
  const replicas: TestApp[] = [];
  beforeAll(async () => {
    replicas.push(await bootApp({ persistence: 'server', env: fixture.env }));
    replicas.push(
      await bootApp({
        persistence: 'server',
        env: fixture.env,
        databaseUrl:
          replicas[0]!.config.persistence.mode === 'server' ? replicas[0]!.config.persistence.databaseUrl : '',
      }),
    );
  });
  afterAll(async () => {
    for (const replica of replicas.reverse()) await replica.close();
    await fixture.cleanup();
  });

  it('samples in one replica only', async () => {
    for (let round = 0; round < 3; round++)
      await Promise.all(replicas.map((replica) => replica.services.history.sampleOnce()));
    expect(await countRows(replicas[0]!, 'connection_sample', 'raw')).toBe(3);
  });
});
