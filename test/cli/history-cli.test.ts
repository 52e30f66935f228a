import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSpan, shortDuration, sparkline, timeline } from '../../client/cli/sparkline.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { runBullpen } from '../helpers/cli.js';
import { seedQueue } from '../helpers/queues.js';
import { totalsOf, type ConnectionSample, type QueuePoint } from '../../server/history/collect-sample.js';
import { writeSample } from '../../server/history/write-sample.js';
import { storeFixture } from '../helpers/stores.js';

describe('sparklines', () => {
  it('draws a time line from 0 to a maximum, blank where no sample was taken', () => {
    expect(timeline([0, null, 7, 14, null], 14)).toBe('▁ ▅█ ');
    expect(timeline([4, 4], 4)).toBe('██');
    expect(timeline([0, 0], 0)).toBe('▁▁');
  });
  it('scales a series between its min and max, flat at the bottom', () => {
    expect(sparkline([0, 7, 14])).toBe('▁▅█');
    expect(sparkline([0, 1, 2, 3, 4, 5, 6, 7])).toBe('▁▂▃▄▅▆▇█');
    expect(sparkline([3, 3, 3])).toBe('▁▁▁');
    expect(sparkline([])).toBe('');
  });
  it('reads spans and prints durations', () => {
    expect(parseSpan('90m')).toBe(5_400_000);
    expect(parseSpan('2d')).toBe(172_800_000);
    expect(parseSpan('6 hours')).toBeUndefined();
    expect([42, 420, 7200, 200_000].map(shortDuration)).toEqual(['42s', '7m', '2h', '2d']);
  });
});

/** One sample of one queue at `at`, as the sampler writes it. */
function sampleAt(at: number, prefix: string, queueName: string, figures: Partial<QueuePoint>): ConnectionSample {
  const point: QueuePoint = {
    prefix,
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
  return {
    at,
    queues: [point],
    totals: totalsOf([point]),
    store: { up: true, usedMemory: 1000, maxMemory: 0, clients: 1, opsPerSecond: 1 },
  };
}

describe('bullpen history and top (the real binary against a live server)', () => {
  const store = storeFixture();
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({
      env: { ...store.env, SERVICE_QUEUE_LIST_CACHE_MS: '0', SERVICE_SAMPLE_INTERVAL_SECONDS: '5' },
    });
    const queue = await seedQueue(store.bullmq, 'invoices', { completed: 2, failed: 3, waiting: 4 });
    await queue.close();
    await app.services.history.sampleOnce();
  });
  afterAll(async () => {
    await app.close();
    await store.cleanup();
  });
  const bullpen = (args: string[]) => runBullpen(args, { env: { BULLPEN_URL: app.url } });

  it('draws the four series of a queue, each on a scale from 0 to its max, with the last value', async () => {
    const run = await bullpen(['history', 'invoices', '--since', '1h']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^completed\s+█\s+0\.\.2\s+last 2$/m);
    expect(run.stdout).toMatch(/^failed\s+█\s+0\.\.3\s+last 3$/m);
    expect(run.stdout).toMatch(/^backlog\s+█\s+0\.\.4\s+last 4$/m);
    expect(run.stdout).toMatch(/^oldest wait\s+[▁█]\s+0\.\.\d+s\s+last \d+s$/m);
  });

  it('places samples at their time on the axis: gaps stay blank, the newest sits at the right edge, times under the ends', async () => {
    // --since 1h on a 60-column plot (stdout is not a terminal): steps of 1 minute. Samples half a step
    // past a minute, 50.5, 49.5 and 10.5 minutes ago: columns 9, 10 and 49 of 60.
    const minute = 60_000;
    const now = Date.now();
    const em = app.services.persistence.fork();
    for (const [ago, completedDelta] of [
      [50.5, 1],
      [49.5, 2],
      [10.5, 4],
    ] as const) {
      await writeSample(
        em,
        'main',
        sampleAt(now - ago * minute, store.prefix, 'gaps', { completedDelta, waiting: 10 }),
      );
    }
    const run = await bullpen(['history', 'gaps', '--since', '1h']);
    expect(run.code).toBe(0);
    const line = run.stdout.split('\n').find((text) => text.startsWith('completed'))!;
    const plot = line.slice('oldest wait  '.length, 'oldest wait  '.length + 60);
    expect(plot).toBe(`${' '.repeat(9)}▃▅${' '.repeat(38)}█${' '.repeat(10)}`);
    expect(line).toMatch(/0\.\.4\s+last 4$/);
    // A steady backlog draws full bars at the same columns: the scale starts at 0, not at the series' minimum.
    expect(run.stdout).toMatch(
      new RegExp(`^backlog\\s{6}${' '.repeat(9)}██${' '.repeat(38)}█${' '.repeat(10)}  0\\.\\.10`, 'm'),
    );
    const lines = run.stdout.split('\n');
    const rule = lines.find((text) => text.includes('└'))!;
    expect(rule.trim()).toMatch(/^└─+┴─+┘$/);
    expect(rule.trim()).toHaveLength(60);
    const times = lines[lines.indexOf(rule) + 1]!;
    const hhmm = (ms: number) => `${new Date(ms).toISOString().slice(11, 16)}Z`;
    expect(
      times.trimStart().startsWith(hhmm(now - 60 * minute)) ||
        times.trimStart().startsWith(hhmm(now - 60 * minute + minute)),
    ).toBe(true);
    expect(times.length).toBe(rule.length);
  });

  it('refuses a span it cannot read, with the usage exit code', async () => {
    const run = await bullpen(['history', 'invoices', '--since', 'yesterday']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--since takes a span/);
  });

  it('prints one table of the busiest queues when the output is not a terminal', async () => {
    const run = await bullpen(['top', 'main']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^1 queue\(s\) on main, by failed/);
    expect(run.stdout).toMatch(/^invoices\s+4\s+0\s+0\s+3\s/m);
  });
});
