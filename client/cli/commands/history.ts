import { defineCommand } from '../command.js';
import { UsageError } from '../context.js';
import { writeJson } from '../output.js';
import { newest, parseSpan, shortDuration, sparkline } from '../sparkline.js';

interface Series {
  label: string;
  values: number[];
  show(value: number): string;
}

function drawSeries(series: Series[], width: number): string {
  const labelWidth = Math.max(...series.map((line) => line.label.length));
  return series
    .map(({ label, values, show }) => {
      const shown = newest(values, width);
      const range = shown.length > 0 ? `min ${show(Math.min(...shown))}  max ${show(Math.max(...shown))}` : 'no samples';
      return `${label.padEnd(labelWidth)}  ${sparkline(shown).padEnd(width)}  ${range}`;
    })
    .join('\n');
}

export const historyCommand = defineCommand({
  name: 'history',
  usage: '<queue> [--since 6h] [--prefix PREFIX]',
  summary: "Sparklines of a queue's throughput, failures, backlog and oldest waiting age",
  options: { since: { type: 'string', default: '6h' }, prefix: { type: 'string' } },
  arity: [1, 1],
  async run({ client, config, io, connectionId }, { positionals: [queueName], values }) {
    const spanMs = parseSpan(values.since);
    if (spanMs === undefined) throw new UsageError(`--since takes a span such as 30m, 6h or 2d, got "${values.since}"`);
    const width = Math.max(20, Math.min(120, ((io.stdout as { columns?: number }).columns ?? 100) - 40));
    const history = await client.history.queue.query({
      connectionId: await connectionId(),
      queueName: queueName!,
      from: new Date(Date.now() - spanMs).toISOString(),
      points: width,
      ...(values.prefix ? { prefix: values.prefix } : {}),
    });
    if (config.json) return writeJson(io.stdout, history);
    const points = history.points;
    const count = (n: number) => String(n);
    io.stdout.write(`${queueName}: ${points.length} step(s) of ${shortDuration(history.stepSeconds)} since ${history.from}\n`);
    io.stdout.write(
      drawSeries(
        [
          { label: 'completed', values: points.map((p) => p.completedDelta), show: count },
          { label: 'failed', values: points.map((p) => p.failedDelta), show: count },
          { label: 'backlog', values: points.map((p) => p.waiting), show: count },
          { label: 'oldest wait', values: points.map((p) => p.oldestWaitingSeconds), show: shortDuration },
        ],
        width,
      ) + '\n',
    );
  },
});
