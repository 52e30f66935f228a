import { Cluster } from 'ioredis';
import type { StoreFacts } from '../../contracts/metrics.js';
import type { StoreClient } from '../stores/redis-client.js';
import { introspect } from './introspection.js';
import { masterNodes } from './master-nodes.js';

/** Version, memory, clients and uptime from INFO on every master; nulls (and a warning) when INFO is not allowed. */
export async function readStoreFacts(client: StoreClient, warnings: string[]): Promise<StoreFacts> {
  const nodes = await masterNodes(client);
  const infos = await introspect(warnings, 'INFO', () => Promise.all(nodes.map((node) => node.info().then(parseInfo))));
  const numbers = (field: string) =>
    (infos ?? []).map((info) => Number(info[field])).filter((value) => Number.isFinite(value));
  const sum = (field: string) => (numbers(field).length > 0 ? numbers(field).reduce((a, b) => a + b, 0) : null);
  const uptimes = numbers('uptime_in_seconds');
  return {
    mode: client instanceof Cluster ? 'cluster' : 'standalone',
    nodes: nodes.length,
    version: infos?.[0]?.redis_version ?? null,
    usedMemoryBytes: sum('used_memory'),
    connectedClients: sum('connected_clients'),
    uptimeSeconds: uptimes.length > 0 ? Math.min(...uptimes) : null,
  };
}

function parseInfo(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at > 0 && !line.startsWith('#')) fields[line.slice(0, at)] = line.slice(at + 1);
  }
  return fields;
}
