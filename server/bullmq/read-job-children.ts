import type { Queue } from 'bullmq';
import type { StoreClient } from '../stores/redis-client.js';
import { jobStateLua } from './job-state-lua.js';
import { LuaScript } from './lua-script.js';
import type { RawJobRef } from './read-job-detail.js';

const dependencyKinds = ['processed', 'unprocessed', 'failed', 'ignored'] as const;

/** A flow parent's children: counts by kind, and the name and state of up to `limit` of them. */
export interface JobChildrenRead {
  counts: Record<(typeof dependencyKinds)[number], number>;
  /** Pending ones first, then processed, failed, ignored; keys `<prefix>:<queue>:<id>` on every kind of store. */
  children: RawJobRef[];
}

/** One job key's name and state (one key per call, so a cluster runs it on the key's own node). */
const refScript = new LuaScript(`${jobStateLua}
return refOf(KEYS[1])
`);

/** Through BullMQ's backend (its dependency keys), then one ref read per child: the tree's cost is its size. */
export async function readJobChildren(
  client: StoreClient,
  queue: Queue,
  jobId: string,
  limit: number,
): Promise<JobChildrenRead> {
  const page = { cursor: 0, count: limit };
  const [countList, listed] = await Promise.all([
    queue.backend.getDependencyCounts(jobId, [...dependencyKinds]),
    queue.backend.getDependencies(jobId, { processed: page, unprocessed: page, failed: page, ignored: page }),
  ]);
  const counts = Object.fromEntries(
    dependencyKinds.map((kind, index) => [kind, countList[index] ?? 0]),
  ) as JobChildrenRead['counts'];
  const keys = [
    ...(listed.unprocessed ?? []),
    ...Object.keys(listed.processed ?? {}),
    ...(listed.failed ?? []),
    ...Object.keys(listed.ignored ?? {}),
  ];
  const children = await Promise.all(
    [...new Set(keys)].slice(0, limit).map(async (key) => {
      const [, name, state] = (await refScript.run(client, [key], [])) as [string, string | false, string];
      return { key, name: name === false ? null : name, state };
    }),
  );
  return { counts, children };
}
