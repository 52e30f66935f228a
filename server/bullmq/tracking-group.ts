import { Cluster, type Redis } from 'ioredis';
import type { StoreClient } from '../stores/redis-client.js';
import { masterNodes } from './master-nodes.js';
import { TrackingLink, type Tracking, type TrackingHandlers } from './tracking-link.js';

/**
 * Client-side tracking of a Redis Cluster: a TrackingLink on each master (broadcast mode is per node, and
 * each node tells of writes to the keys it holds), every notice to the same handler. A notice missed is
 * a count wrong, so the group is trusted only while it hears from every node that can take a write:
 * `sync` waits for each link's notices and asks a master which nodes own the slots now (CLUSTER SLOTS,
 * node ids, so a NAT-mapped address changes nothing); a master it has no link to (a failover's promoted
 * replica, a node added and given slots) makes it a loss, as does any link dropping: the tracker forgets
 * its counts and the request counts by script, as on a store without tracking.
 */
export class TrackingGroup implements Tracking {
  closed = false;

  private constructor(
    private readonly links: Array<{ link: TrackingLink; id: string }>,
    private readonly onLost: () => void,
  ) {}

  /** One TrackingLink on the standalone client, a group of them on a cluster. */
  static async open(
    client: StoreClient,
    keyPrefixes: readonly string[],
    handlers: TrackingHandlers,
  ): Promise<Tracking> {
    if (!(client instanceof Cluster)) return TrackingLink.open(client, keyPrefixes, handlers);
    const group: { current?: TrackingGroup } = {};
    const lost = () => group.current?.lost();
    const opened = await Promise.allSettled(
      (await masterNodes(client)).map((node: Redis) =>
        TrackingLink.open(node, keyPrefixes, { ...handlers, onLost: lost }),
      ),
    );
    const links = opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failed = opened.find((result) => result.status === 'rejected');
    try {
      if (failed) throw failed.reason;
      const ids = await Promise.all(links.map(async (link) => String(await link.ask('CLUSTER', 'MYID'))));
      group.current = new TrackingGroup(
        links.map((link, index) => ({ link, id: ids[index]! })),
        handlers.onLost,
      );
      return group.current;
    } catch (error) {
      for (const link of links) link.close();
      throw error;
    }
  }

  async sync(timeoutMs: number): Promise<void> {
    const [owners] = await Promise.all([
      this.links[0]!.link.ask('CLUSTER', 'SLOTS'),
      ...this.links.map(({ link }) => link.sync(timeoutMs)),
    ]);
    const linked = new Set(this.links.map(({ link, id }) => !link.closed && id));
    const unlinked = slotOwnerIds(owners).filter((id) => !linked.has(id));
    if (unlinked.length > 0 || this.closed) {
      this.lost();
      throw new Error(`cluster masters without a tracking link: ${unlinked.join(', ') || 'a link was lost'}`);
    }
  }

  closeWhenIdle(idleMs: number, idleFor: () => number): void {
    // One timer is enough: it closes the whole group (see lost), each link's own would too.
    this.links[0]?.link.closeWhenIdle(idleMs, idleFor);
  }

  private lost(): void {
    if (this.closed) return;
    this.close();
    this.onLost();
  }

  close(): void {
    this.closed = true;
    for (const { link } of this.links) link.close();
  }
}

/** The node id of each slot range's master in a CLUSTER SLOTS reply ([start, end, [host, port, id, …], replicas…]). */
export function slotOwnerIds(reply: unknown): string[] {
  const ranges = Array.isArray(reply) ? (reply as unknown[][]) : [];
  return [...new Set(ranges.map((range) => String((range[2] as unknown[] | undefined)?.[2] ?? '')))];
}
