import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  totalsOf,
  type ConnectionSample,
  type QueuePoint,
  type StoreFacts,
} from '../../server/history/collect-sample.js';
import { readRule, type RuleSpec } from '../../server/alerts/rule-values.js';
import { writeSample } from '../../server/history/write-sample.js';
import { bootApp, persistenceKinds, type TestApp } from '../helpers/app.js';

const interval = 60_000;
const up: StoreFacts = { up: true, usedMemory: 900, maxMemory: 1000, clients: 1, opsPerSecond: 1 };

function point(queueName: string, figures: Partial<QueuePoint>): QueuePoint {
  return {
    prefix: 'bull',
    queueName,
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
}
const sample = (at: number, queues: QueuePoint[], store: StoreFacts = up): ConnectionSample => ({
  at,
  queues,
  totals: totalsOf(queues),
  store,
});
const rule = (spec: Partial<RuleSpec> & Pick<RuleSpec, 'type'>): RuleSpec => ({
  threshold: 0,
  windowMinutes: 5,
  minVolume: null,
  queues: { include: ['*'], exclude: [] },
  ...spec,
});

describe.each(persistenceKinds)('alert rule types read the history (%s)', (persistence) => {
  let app: TestApp;
  const now = Date.now();
  beforeAll(async () => {
    app = await bootApp({ persistence, env: { SERVICE_AUTHLESS: 'true' } });
    const em = app.services.persistence.fork();
    // Six samples a minute apart covering the last five minutes.
    for (let minute = 5; minute >= 0; minute--) {
      const at = now - minute * interval;
      await writeSample(
        em,
        'c1',
        sample(
          at,
          [
            point('backed-up', { waiting: 50 + minute, oldestWaitingSeconds: 400 - minute * 60 }),
            point('flaky', { completedDelta: 8, failedDelta: 2 }),
            point('stuck', { waiting: 3, oldestWaitingSeconds: 30 }),
            point('quiet-but-low', { waiting: minute === 2 ? 1 : 40 }),
          ],
          minute <= 5 ? { ...up, up: false } : up,
        ),
      );
    }
  });
  afterAll(() => app.close());

  const read = (spec: RuleSpec) => readRule(app.services.persistence.fork(), 'c1', spec, now, interval);
  const subject = async (spec: RuleSpec, name: string | null) =>
    (await read(spec)).subjects.find((s) => s.queueName === name);

  it('failed_count sums failures in the window; failure_rate divides by finished, after minVolume', async () => {
    expect(await subject(rule({ type: 'failed_count', threshold: 12 }), 'flaky')).toMatchObject({
      value: 12,
      firing: true,
    });
    expect(await subject(rule({ type: 'failed_count', threshold: 13 }), 'flaky')).toMatchObject({ firing: false });
    expect(await subject(rule({ type: 'failure_rate', threshold: 20 }), 'flaky')).toMatchObject({
      value: 20,
      firing: true,
    });
    expect(await subject(rule({ type: 'failure_rate', threshold: 20, minVolume: 61 }), 'flaky')).toMatchObject({
      firing: false,
    });
  });

  it('backlog needs the whole window above the threshold', async () => {
    expect(await subject(rule({ type: 'backlog', threshold: 50 }), 'backed-up')).toMatchObject({
      value: 50,
      firing: true,
    });
    expect(await subject(rule({ type: 'backlog', threshold: 10 }), 'quiet-but-low')).toMatchObject({
      value: 1,
      firing: false,
    });
    expect(await subject(rule({ type: 'backlog', threshold: 50, windowMinutes: 60 }), 'backed-up')).toMatchObject({
      firing: false,
    });
  });

  it('stalled fires on an old waiting job, or on waiting jobs with nothing completed in the window', async () => {
    expect(await subject(rule({ type: 'stalled', windowMinutes: 6 }), 'backed-up')).toMatchObject({
      value: 400,
      firing: true,
    });
    expect(await subject(rule({ type: 'stalled', windowMinutes: 5 }), 'stuck')).toMatchObject({ firing: true });
    expect(await subject(rule({ type: 'stalled', windowMinutes: 5 }), 'flaky')).toMatchObject({ firing: false });
  });

  it('store_down needs every sample of the window down; store_memory compares used with maxmemory', async () => {
    expect(await subject(rule({ type: 'store_down', windowMinutes: 5 }), null)).toMatchObject({
      value: 6,
      firing: true,
    });
    expect(await subject(rule({ type: 'store_down', windowMinutes: 30 }), null)).toMatchObject({ firing: false });
    expect(await subject(rule({ type: 'store_memory', threshold: 90 }), null)).toMatchObject({
      value: 90,
      firing: true,
    });
    expect(await subject(rule({ type: 'store_memory', threshold: 91 }), null)).toMatchObject({ firing: false });
  });

  it('watches only the queues its globs select', async () => {
    const reading = await read(
      rule({ type: 'failed_count', threshold: 1, queues: { include: ['*'], exclude: ['fl?ky', 'stu*'] } }),
    );
    expect(reading.subjects.map((s) => s.queueName).sort()).toEqual(['backed-up', 'quiet-but-low']);
  });
});
