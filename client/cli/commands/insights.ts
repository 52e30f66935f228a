import { defineCommand } from '../command.js';
import { formatTable, formatTime, writeJson } from '../output.js';
import { shortMs } from './history.js';

const percentiles = (name: string, p: { p50: number; p95: number; p99: number } | null) =>
  p ? `${name} p50 ${shortMs(p.p50)}  p95 ${shortMs(p.p95)}  p99 ${shortMs(p.p99)}` : `${name}: nothing finished`;

export const insightsCommand = defineCommand({
  name: 'insights',
  usage: '<queue> [--window 1h] [--prefix PREFIX]',
  summary:
    'The job names that failed most and the slowest jobs of a recent window, with processing and wait percentiles',
  options: { window: { type: 'string', default: '1h' }, prefix: { type: 'string' } },
  flagHelp: {
    window: 'how far back: minutes, hours or days such as 30m, 1h, 7d (default 1h)',
    prefix: "the queue's BullMQ prefix, when it is not the connection's first",
  },
  examples: ['bullpen insights emails', 'bullpen insights emails --window 24h --json'],
  arity: [1, 1],
  async run({ client, config, io, connectionId }, { positionals: [queueName], values }) {
    const insights = await client.history.insights.query({
      connectionId: await connectionId(),
      queueName: queueName!,
      window: values.window,
      ...(values.prefix ? { prefix: values.prefix } : {}),
    });
    if (config.json) return writeJson(io.stdout, insights);
    const read = insights.completed.examined + insights.failed.examined;
    const inWindow = insights.completed.inWindow + insights.failed.inWindow;
    io.stdout.write(
      `${queueName}: ${inWindow} job(s) finished since ${formatTime(Date.parse(insights.from))}${insights.exact ? '' : `, the newest ${read} read`}\n`,
    );
    io.stdout.write(
      `${percentiles('runtime', insights.processingMs)}\n${percentiles('wait', insights.waitMs)}\n\nfailing most\n`,
    );
    io.stdout.write(
      formatTable(
        ['name', 'failed', 'completed', 'failure rate'],
        insights.topFailingNames.map((n) => [n.name, n.failed, n.completed, `${Math.round(n.failureRate * 100)}%`]),
      ),
    );
    io.stdout.write('\nslowest\n');
    io.stdout.write(
      formatTable(
        ['id', 'name', 'state', 'runtime', 'wait', 'finished'],
        insights.slowestJobs.map((j) => [
          j.id,
          j.name,
          j.state,
          shortMs(j.processingMs),
          j.waitMs === null ? '-' : shortMs(j.waitMs),
          formatTime(j.finishedOn),
        ]),
      ),
    );
  },
});
