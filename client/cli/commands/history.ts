import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../api-types.js';
import { defineCommand } from '../command.js';
import { UsageError } from '../context.js';
import { writeJson } from '../output.js';
import { parseSpan, shortDuration, timeline } from '../sparkline.js';
import { timeAxis } from './time-axis.js';

type QueueHistory = inferRouterOutputs<AppRouter>['history']['queue'];
type Point = QueueHistory['points'][number];

interface Series {
  label: string;
  /** null: the step measured nothing of it (no job finished), drawn blank like a step without a sample. */
  value(point: Point): number | null;
  show(value: number): string;
}

/** Milliseconds as people read a duration: `85ms`, `1.4s`, `12s`, then minutes and hours. */
export const shortMs = (ms: number) =>
  ms < 1000
    ? `${Math.round(ms)}ms`
    : ms < 60_000
      ? `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`
      : shortDuration(Math.round(ms / 1000));

const series: Series[] = [
  { label: 'completed', value: (p) => p.completedDelta, show: String },
  { label: 'failed', value: (p) => p.failedDelta, show: String },
  { label: 'backlog', value: (p) => p.waiting, show: String },
  { label: 'oldest wait', value: (p) => p.oldestWaitingSeconds, show: shortDuration },
  { label: 'p95 runtime', value: (p) => p.processingMs?.p95 ?? null, show: shortMs },
  { label: 'p95 wait', value: (p) => p.waitMs?.p95 ?? null, show: shortMs },
];

/** The step each point falls in, from the range's start: one column per step, null where no sample was taken. */
function columnsOf(history: QueueHistory): Array<Point | null> {
  const from = Date.parse(history.from);
  const stepMs = history.stepSeconds * 1000;
  const count = Math.max(1, Math.round((Date.parse(history.to) - from) / stepMs));
  const columns = new Array<Point | null>(count).fill(null);
  for (const point of history.points)
    columns[Math.min(count - 1, Math.max(0, Math.floor((Date.parse(point.at) - from) / stepMs)))] = point;
  return columns;
}

/** Each series on the range's time axis (scaled from 0 to its max), then the axis with its start and end times. */
function drawHistory(history: QueueHistory): string {
  const columns = columnsOf(history);
  const labelWidth = Math.max(...series.map((line) => line.label.length));
  const sampled = columns.filter((point): point is Point => point !== null);
  const rows = series.map(({ label, value, show }) => {
    const values = columns.map((point) => (point ? value(point) : null));
    const measured = sampled.map(value).filter((one): one is number => one !== null);
    const max = Math.max(0, ...measured);
    const last = measured.at(-1);
    const scale =
      last !== undefined
        ? `0..${show(max)}  last ${show(last)}`
        : sampled.length > 0
          ? 'nothing finished'
          : 'no samples';
    return `${label.padEnd(labelWidth)}  ${timeline(values, max)}  ${scale}`;
  });
  const axis = timeAxis(Date.parse(history.from), Date.parse(history.to), columns.length).map(
    (line) => `${' '.repeat(labelWidth + 2)}${line}`,
  );
  return `${[...rows, ...axis].join('\n')}\n`;
}

export const historyCommand = defineCommand({
  name: 'history',
  usage: '<queue> [--since 6h] [--prefix PREFIX]',
  summary:
    "A queue's throughput, failures, backlog, oldest waiting age and p95 processing and wait times on a time axis (blank where no sample was taken)",
  options: { since: { type: 'string', default: '6h' }, prefix: { type: 'string' } },
  flagHelp: {
    since: 'how far back: minutes, hours or days such as 30m, 6h, 2d (default 6h)',
    prefix: "the queue's BullMQ prefix, when it is not the connection's first",
  },
  examples: [
    'bullpen history emails',
    'bullpen history emails --since 2d',
    'bullpen history emails --since 30m --json',
  ],
  arity: [1, 1],
  async run({ client, config, io, connectionId }, { positionals: [queueName], values }) {
    const spanMs = parseSpan(values.since);
    if (spanMs === undefined) throw new UsageError(`--since takes a span such as 30m, 6h or 2d, got "${values.since}"`);
    const width = Math.max(20, Math.min(120, ((io.stdout as { columns?: number }).columns ?? 100) - 40));
    // `to` as well: the span is then exactly --since, and its steps whole (1 h in 60 points: 1-minute steps).
    const to = Date.now();
    const history = await client.history.queue.query({
      connectionId: await connectionId(),
      queueName: queueName!,
      from: new Date(to - spanMs).toISOString(),
      to: new Date(to).toISOString(),
      points: width,
      ...(values.prefix ? { prefix: values.prefix } : {}),
    });
    if (config.json) return writeJson(io.stdout, history);
    io.stdout.write(
      `${queueName}: ${history.points.length} sample(s) in steps of ${shortDuration(history.stepSeconds)}; each row scaled from 0 to its max\n`,
    );
    io.stdout.write(drawHistory(history));
  },
});
