import type { KeyType } from '../../api-types.js';
import { defineCommand, integerFlag } from '../command.js';
import { formatTable, writeJson } from '../output.js';
import { withProgress } from '../progress.js';

type KeySummary = { key: string; type: string; ttl: number; memoryBytes?: number | undefined };

export const keysCommand = defineCommand({
  name: 'keys',
  usage: '<pattern> [--type TYPE] [--limit N] [--no-queue-keys]',
  summary: 'Find store keys matching a glob pattern (SCAN, never KEYS), up to --limit (default 100)',
  options: {
    type: { type: 'string' },
    limit: { type: 'string' },
    'no-queue-keys': { type: 'boolean', default: false },
  },
  flagHelp: {
    type: 'only keys of this Redis type: string, hash, list, set, zset or stream',
    limit: 'stop after this many keys (default 100)',
    'no-queue-keys': "leave out BullMQ's own queue keys",
  },
  examples: [
    "bullpen keys 'session:*'",
    "bullpen keys '*' --type hash --limit 20",
    "bullpen keys 'cache:*' --no-queue-keys --json",
  ],
  arity: [1, 1],
  async run({ client, config, io, connectionId }, { positionals: [pattern], values }) {
    const limit = integerFlag('limit', values.limit, 100);
    const connection = await connectionId();
    const found: KeySummary[] = [];
    let cursor = '0';
    let done = false;
    let pages = 0;
    await withProgress(io.stderr, `scanning for ${pattern}…`, async (progress) => {
      while (!done && found.length < limit) {
        const page = await client.storeKeys.search.query({
          connectionId: connection,
          pattern: pattern!,
          cursor,
          count: Math.min(1000, limit - found.length),
          // The server checks the type and names the valid ones when it refuses.
          type: (values.type ?? '') as KeyType | '',
          excludeQueueKeys: values['no-queue-keys'],
        });
        found.push(...page.keys);
        ({ cursor, done } = page);
        progress.update(`scanning for ${pattern}: ${++pages} page(s), ${found.length} key(s)`);
      }
    });
    const keys = found.slice(0, limit);
    if (config.json) return writeJson(io.stdout, { keys, cursor, done });
    io.stdout.write(
      formatTable(
        ['key', 'type', 'ttl', 'bytes'],
        keys.map((k) => [k.key, k.type, k.ttl === -1 ? 'none' : `${k.ttl}s`, k.memoryBytes]),
      ),
    );
    io.stdout.write(`${keys.length} key(s)${done ? '' : ` shown; more remain (raise --limit)`}\n`);
  },
});
