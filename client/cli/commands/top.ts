import type { BullpenClient } from '../../index.js';
import { defineCommand, integerFlag } from '../command.js';
import { UsageError } from '../context.js';
import { formatTable } from '../output.js';
import { sparkline } from '../sparkline.js';

const sortKeys = ['failed', 'waiting', 'active', 'delayed', 'completed', 'name'] as const;
type SortKey = (typeof sortKeys)[number];
const refreshMs = 2000;
const sparkWindowMs = 30 * 60_000;

/** The busiest queues with their counts, per-minute rates and a 30-minute backlog sparkline. */
async function snapshot(client: BullpenClient, connectionId: string, sort: SortKey, limit: number): Promise<string> {
  const list = await client.queues.list.query({ connectionId, sort, limit, search: '' });
  const from = new Date(Date.now() - sparkWindowMs).toISOString();
  const histories = await Promise.all(
    list.queues.map((queue) =>
      client.history.queue
        .query({ connectionId, queueName: queue.name, prefix: queue.prefix, from, points: 15 })
        .catch(() => null),
    ),
  );
  const rows = list.queues.map((queue, at) => {
    const points = histories[at]?.points ?? [];
    const last = points.at(-1);
    const perMinute = (delta: number | undefined) =>
      last && delta !== undefined ? ((delta * 60) / histories[at]!.stepSeconds).toFixed(1) : '-';
    const n = queue.jobCounts;
    return [
      queue.name,
      queue.isPaused ? 'paused' : '',
      n.waiting,
      n.active,
      n.delayed,
      n.failed,
      perMinute(last?.completedDelta),
      perMinute(last?.failedDelta),
      sparkline(points.map((p) => p.waiting)),
    ];
  });
  const header = `${list.total} queue(s) on ${connectionId}, by ${sort}, ${new Date().toISOString().slice(11, 19)}Z\n`;
  return (
    header +
    formatTable(
      ['queue', 'paused', 'waiting', 'active', 'delayed', 'failed', 'done/min', 'failed/min', 'backlog 30m'],
      rows,
    )
  );
}

/**
 * Waits `ms` or until `signal` aborts. The timer keeps the process alive: an
 * unref'd one let Node end the CLI after the first frame (issue 35).
 */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

export const topCommand = defineCommand({
  name: 'top',
  usage: '[connection] [--sort failed|waiting|active|delayed|completed|name] [--limit N]',
  summary: 'A live table of the busiest queues, refreshed every 2 s until Ctrl-C (one table when not a terminal)',
  options: { sort: { type: 'string', default: 'failed' }, limit: { type: 'string' } },
  flagHelp: {
    sort: 'order of the rows, busiest first (default failed; name sorts A to Z)',
    limit: 'how many queues to show (default 20)',
  },
  examples: [
    'bullpen top',
    'bullpen top --sort waiting --limit 10',
    'bullpen top staging   # another connection, by name',
  ],
  arity: [0, 1],
  async run({ client, io, connectionId }, { positionals: [named], values }) {
    if (!sortKeys.includes(values.sort as SortKey)) throw new UsageError(`--sort takes one of ${sortKeys.join(', ')}`);
    const sort = values.sort as SortKey;
    const limit = integerFlag('limit', values.limit, 20);
    const connection = named ?? (await connectionId());
    if (!io.stdout.isTTY) return void io.stdout.write(await snapshot(client, connection, sort, limit));
    const stop = new AbortController();
    const interrupt = () => stop.abort();
    process.once('SIGINT', interrupt);
    process.once('SIGTERM', interrupt);
    try {
      while (!stop.signal.aborted) {
        const table = await snapshot(client, connection, sort, limit);
        io.stdout.write(`\u001b[H\u001b[2J${table}(Ctrl-C to stop)\n`);
        await pause(refreshMs, stop.signal);
      }
      io.stdout.write('\n'); // past the ^C the terminal echoed
    } finally {
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
    }
  },
});
