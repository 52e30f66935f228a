import { Cluster } from 'ioredis';
import { createStoreClient, type StoreClient, type StoreEndpoint } from './redis-client.js';
import { describeStoreFailure } from './store-errors.js';

export interface StoreProbe {
  ok: boolean;
  latencyMs: number | null;
  redisVersion: string | null;
  mode: 'standalone' | 'cluster';
  error?: string;
}

export const probeDeadlineMs = 3000;

function infoField(info: string, field: string): string | null {
  return new RegExp(`^${field}:(.+)$`, 'm').exec(info)?.[1]?.trim() ?? null;
}

async function measure(client: StoreClient, requestedMode: StoreProbe['mode']): Promise<StoreProbe> {
  await client.connect();
  const started = performance.now();
  await client.ping();
  const latencyMs = Math.round((performance.now() - started) * 100) / 100;
  // A cluster answers INFO per node; any master tells the version and mode.
  const info = await (client instanceof Cluster ? client.nodes('master')[0]!.info('server') : client.info('server'));
  const reported = infoField(info, 'redis_mode');
  const mode = reported === 'cluster' || reported === 'standalone' ? reported : requestedMode;
  return { ok: true, latencyMs, redisVersion: infoField(info, 'redis_version'), mode };
}

/**
 * Connects once with a fresh client (never the shared one: a test must not
 * disturb live traffic), PINGs, reads the server version, and gives up after
 * three seconds. Failures come back as `ok: false` with a reason safe to show.
 */
export async function probeStore(target: StoreEndpoint): Promise<StoreProbe> {
  const requestedMode = target.cluster ? 'cluster' : 'standalone';
  const client = createStoreClient(target, { connectMs: 2000, commandMs: 1500 }, { reconnect: false });
  // A one-shot client rejects with a bare "Connection is closed"; the reason came as an 'error' event.
  let reason: unknown;
  client.on('error', (error: Error) => (reason ??= error));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('Command timed out')), probeDeadlineMs - 100);
  });
  try {
    return await Promise.race([measure(client, requestedMode), deadline]);
  } catch (error) {
    return { ok: false, latencyMs: null, redisVersion: null, mode: requestedMode, error: describeStoreFailure(reason ?? error) };
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
}
