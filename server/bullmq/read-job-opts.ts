import { Cluster } from 'ioredis';
import type { StoreClient } from '../stores/redis-client.js';
import { LuaScript } from './lua-script.js';
import { keyed, runPipelined } from './pipelined.js';
import { queueKey, type QueueRef } from './queue-key.js';

/** Each job's options, or false when it is gone. ARGV: the queue's key base, then the job ids. */
const optsScript = new LuaScript(`local base = ARGV[1]
local opts = {}
for i = 2, #ARGV do
  opts[i - 1] = redis.call('HGET', base .. ARGV[i], 'opts') or false
end
return opts`);

/**
 * The raw options of each job (null when it is gone), read in one round trip: on a standalone store one
 * script call (a thousand HGETs sent as commands cost the service a command object each, and Redis a
 * command's parsing each); on a cluster, whose job keys may sit on other nodes than the queue's, HGETs.
 */
export async function readJobOpts(client: StoreClient, ref: QueueRef, jobIds: string[]): Promise<Array<string | null>> {
  if (jobIds.length === 0) return [];
  if (!(client instanceof Cluster))
    return (await optsScript.run(client, [queueKey(ref, 'meta')], [queueKey(ref, ''), ...jobIds])) as Array<
      string | null
    >;
  const replies = await runPipelined(
    client,
    jobIds.map((id) => keyed('hget', queueKey(ref, id), 'opts')),
  );
  return replies.map((reply) => (typeof reply === 'string' ? reply : null));
}
