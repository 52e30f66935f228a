import { Cluster } from 'ioredis';
import type { StoreClient } from '../stores/redis-client.js';

/** A Redis command and the key that routes it on a cluster (every key of it shares that key's hash tag). */
export interface KeyedCommand {
  key: string;
  args: [name: string, ...args: Array<string | number>];
}

export const keyed = (name: string, key: string, ...rest: Array<string | number>): KeyedCommand => ({
  key,
  args: [name, key, ...rest],
});

/** Redis routes a key by the text between its first `{` and the next `}` when that is not empty. */
export function hashTag(key: string): string {
  const open = key.indexOf('{');
  if (open < 0) return key;
  const close = key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : key;
}

function groupByHashTag(commands: KeyedCommand[]): number[][] {
  const groups = new Map<string, number[]>();
  commands.forEach((command, index) => {
    const tag = hashTag(command.key);
    const group = groups.get(tag);
    if (group) group.push(index);
    else groups.set(tag, [index]);
  });
  return [...groups.values()];
}

async function execPipeline(client: StoreClient, commands: KeyedCommand[]): Promise<unknown[]> {
  const replies = (await client.pipeline(commands.map((command) => command.args)).exec()) ?? [];
  return replies.map(([error, value]) => {
    if (error) throw error;
    return value;
  });
}

/**
 * Runs many commands in one round trip: a single pipeline on a standalone
 * store. A cluster pipeline must stay on one node, so there the commands go
 * as one pipeline per hash tag (all keys of a BullMQ queue share one), sent
 * in parallel. Replies come back in command order.
 */
export async function runPipelined(client: StoreClient, commands: KeyedCommand[]): Promise<unknown[]> {
  if (commands.length === 0) return [];
  if (!(client instanceof Cluster)) return execPipeline(client, commands);
  const replies = new Array<unknown>(commands.length);
  await Promise.all(
    groupByHashTag(commands).map(async (indexes) => {
      const groupReplies = await execPipeline(
        client,
        indexes.map((index) => commands[index]!),
      );
      indexes.forEach((index, position) => {
        replies[index] = groupReplies[position];
      });
    }),
  );
  return replies;
}
