import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSpan, shortDuration, sparkline } from '../../client/cli/sparkline.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { runBullpen } from '../helpers/cli.js';
import { seedQueue } from '../helpers/queues.js';
import { storeFixture } from '../helpers/stores.js';

describe('sparklines', () => {
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

describe('bullpen history and top (the real binary against a live server)', () => {
  const store = storeFixture();
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({ env: { ...store.env, SERVICE_QUEUE_LIST_CACHE_MS: '0', SERVICE_SAMPLE_INTERVAL_SECONDS: '5' } });
    const queue = await seedQueue(store.bullmq, 'invoices', { completed: 2, failed: 3, waiting: 4 });
    await queue.close();
    await app.services.history.sampleOnce();
  });
  afterAll(async () => {
    await app.close();
    await store.cleanup();
  });
  const bullpen = (args: string[]) => runBullpen(args, { env: { BULLPEN_URL: app.url } });

  it('draws the four series of a queue with their min and max', async () => {
    const run = await bullpen(['history', 'invoices', '--since', '1h']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^completed\s+▁\s+min 2\s+max 2$/m);
    expect(run.stdout).toMatch(/^failed\s+▁\s+min 3\s+max 3$/m);
    expect(run.stdout).toMatch(/^backlog\s+▁\s+min 4\s+max 4$/m);
    expect(run.stdout).toMatch(/^oldest wait\s+▁\s+min \d+s/m);
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
