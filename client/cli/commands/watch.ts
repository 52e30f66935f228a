import type { QueueEvent } from '../../index.js';
import { defineCommand } from '../command.js';

function describeEvent(event: QueueEvent): string {
  const time = new Date(Number(event.id.split('-')[0])).toISOString().slice(11, 23);
  const details = [
    event.jobId ? `job ${event.jobId}` : '',
    event.state ? `→ ${event.state}` : '',
    event.failedReason ? `reason: ${event.failedReason}` : '',
    event.progress !== undefined ? `progress: ${JSON.stringify(event.progress)}` : '',
    event.returnvalue !== undefined ? `result: ${JSON.stringify(event.returnvalue)}` : '',
  ].filter(Boolean);
  return `${time}  ${event.type.padEnd(9)} ${details.join('  ')}`;
}

export const watchCommand = defineCommand({
  name: 'watch',
  usage: '<queue> [--data] [--prefix PREFIX]',
  summary: "Print a queue's live events until interrupted (--json: one JSON object per line)",
  options: { data: { type: 'boolean', default: false }, prefix: { type: 'string' } },
  flagHelp: {
    data: "include completed jobs' return values",
    prefix: "the queue's BullMQ prefix, when it is not the connection's first",
  },
  examples: ['bullpen watch emails', 'bullpen watch emails --json | head -20', 'bullpen watch emails --data'],
  arity: [1, 1],
  async run({ client, config, io, connectionId }, { positionals: [queueName], values }) {
    const stop = new AbortController();
    const interrupt = () => stop.abort();
    process.once('SIGINT', interrupt);
    process.once('SIGTERM', interrupt);
    try {
      const events = client.watchQueue({
        connectionId: await connectionId(),
        queueName: queueName!,
        includeData: values.data,
        signal: stop.signal,
        ...(values.prefix ? { prefix: values.prefix } : {}),
      });
      if (!config.json) io.stderr.write(`watching ${queueName} (Ctrl-C to stop)\n`);
      for await (const event of events)
        io.stdout.write(`${config.json ? JSON.stringify(event) : describeEvent(event)}\n`);
    } finally {
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
    }
  },
});
