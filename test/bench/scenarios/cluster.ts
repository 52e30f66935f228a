import { Cluster, type Redis } from 'ioredis';
import { startLocalCluster } from '../../helpers/redis-cluster.js';
import type { ServerProcess } from '../processes.js';
import { report, round } from '../targets.js';
import { fleetNames, readerQueue, seedFleet, slotPrefix, spreadPrefix } from './cluster-seed.js';

/** Bullpen's environment for the two connections of this scenario: `solo` (standalone) and `grid` (the cluster). */
export function clusterConnectionsEnv(soloUrl: string, gridUrl: string): Record<string, string> {
  const prefixes = `${spreadPrefix},${slotPrefix}`;
  return {
    SERVICE_REDIS_URL_SOLO: soloUrl,
    SERVICE_REDIS_URL_SOLO_PREFIX: prefixes,
    SERVICE_REDIS_URL_GRID: gridUrl,
    SERVICE_REDIS_URL_GRID_PREFIX: prefixes,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A GET, sent again once when the socket was reset (a keep-alive connection the server had just closed). */
async function get(url: string): Promise<Response> {
  try {
    return await fetch(url);
  } catch (error) {
    console.log(`cluster: ${url} failed (${(error as Error).cause ?? error}), once more`);
    return fetch(url);
  }
}

async function timedGet(url: string): Promise<number> {
  const started = performance.now();
  const response = await get(url);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  return performance.now() - started;
}

async function waitForScan(base: string): Promise<void> {
  for (;;) {
    const status = (await (await get(`${base}/discovery`)).json()) as { scanning: boolean; lastScanAt: unknown };
    if (!status.scanning && status.lastScanAt) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every queue of the connection's list, page by page (100 a page), as `prefix/name`. */
async function listAll(base: string): Promise<Set<string>> {
  const names = new Set<string>();
  for (let page = 1; ; page++) {
    const body = (await (await get(`${base}/queues?page=${page}&pageSize=100`)).json()) as {
      queues: Array<{ name: string; prefix: string }>;
    };
    for (const queue of body.queues) names.add(`${queue.prefix}/${queue.name}`);
    if (body.queues.length < 100) return names;
  }
}

/** `samples` requests to each URL, alternating solo and grid so load on the machine falls on both alike. */
async function paired(soloUrl: string, gridUrl: string, samples: number): Promise<{ solo: number; grid: number }> {
  const times = { solo: [] as number[], grid: [] as number[] };
  for (let i = 0; i < samples; i++) {
    times.solo.push(await timedGet(soloUrl));
    times.grid.push(await timedGet(gridUrl));
  }
  return { solo: round(median(times.solo)), grid: round(median(times.grid)) };
}

/**
 * Issue 36 item 2: the same `queues` queues on a standalone store and on a 3-master cluster on loopback
 * (`clusterPorts`), both connections of one Bullpen: every queue found on each of 10 full listings of
 * the cluster, and the list, totals and a job read within 1.5× of standalone.
 */
export async function clusterScenario(
  startBullpen: (env: Record<string, string>) => Promise<ServerProcess>,
  solo: { url: string; redis: Redis },
  clusterPorts: number[],
  queues: number,
): Promise<void> {
  const cluster = await startLocalCluster(clusterPorts);
  const grid = new Cluster(
    clusterPorts.map((port) => ({ host: '127.0.0.1', port })),
    { enableAutoPipelining: true },
  );
  try {
    console.log(`cluster: seeding ${queues} queues into standalone and the cluster…`);
    await seedFleet(solo.redis, queues);
    await seedFleet(grid, queues);
    const bullpen = await startBullpen(clusterConnectionsEnv(solo.url, cluster.url));
    const api = (id: string) => `${bullpen.url}/api/c/${id}`;
    await Promise.all([waitForScan(api('solo')), waitForScan(api('grid'))]);
    const expected = new Set(fleetNames(queues).map(({ prefix, name }) => `${prefix}/${name}`));
    const listings = [];
    for (let i = 0; i < 10; i++) listings.push(await listAll(api('grid')));
    const complete = listings.filter(
      (found) => found.size === expected.size && [...found].every((n) => expected.has(n)),
    );
    const soloListing = await listAll(api('solo'));
    report(
      '36.2 cluster',
      `${queues} queues (half hash-tagged names over 3 masters, half plain names under ${slotPrefix}): full listings finding every queue, cluster (standalone)`,
      `${complete.length} of 10, ${listings.map((found) => found.size).join('/')} (${soloListing.size})`,
      '10 of 10',
      complete.length === 10 && soloListing.size === expected.size,
    );
    const reader = encodeURIComponent(readerQueue);
    const figures: Array<[string, string, number]> = [
      ['page of 100', '/queues?page=1&pageSize=100', 15],
      ['page of 100 sorted by failed', '/queues?page=1&pageSize=100&sort=failed', 15],
      ['page of 100 with totals=true', '/queues?page=1&pageSize=100&totals=true', 15],
      ['job read', `/queues/${reader}/jobs/1`, 200],
    ];
    for (const [label, path, samples] of figures) {
      const { solo: soloMs, grid: gridMs } = await paired(`${api('solo')}${path}`, `${api('grid')}${path}`, samples);
      const ratio = round(gridMs / soloMs);
      report(
        '36.2 cluster',
        `${queues} queues: ${label}, median ms of ${samples}: cluster / standalone`,
        `${gridMs} / ${soloMs} (${ratio}×)`,
        '≤ 1.5×',
        ratio <= 1.5,
      );
    }
    await bullpen.stop();
  } finally {
    grid.disconnect();
    await cluster.stop();
  }
}
