import type { Command, Redis } from 'ioredis';
import type { CountTracker, TrackedTotals } from '../../../server/bullmq/count-tracker.js';
import type { QueueRef } from '../../../server/bullmq/queue-key.js';

/** The tracker's answer for `refs` once it gives one (it catches up in the background first). */
export async function trackerAnswer(tracker: CountTracker, refs: readonly QueueRef[]): Promise<TrackedTotals> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const answer = await tracker.totals(refs);
    if (answer) return answer;
    await tracker.settled();
  }
  throw new Error('the tracker never answered');
}

/** The queues each figures script call was sent for (its numkeys) on `client` while `work` ran. */
export async function scriptCallsDuring(client: Redis, work: () => Promise<unknown>): Promise<number[]> {
  const sizes: number[] = [];
  const target = client as unknown as { sendCommand(command: Command): unknown };
  const original = target.sendCommand;
  target.sendCommand = function (this: unknown, command: Command) {
    if (command.name.toLowerCase() === 'evalsha') sizes.push(Number(command.args[1]));
    return original.call(this, command);
  };
  try {
    await work();
    return sizes;
  } finally {
    target.sendCommand = original;
  }
}
