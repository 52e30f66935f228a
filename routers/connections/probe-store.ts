import { setTimeout as sleep } from 'node:timers/promises';
import { Cluster } from 'ioredis';
import { AppError } from '../../contracts/app-error.js';
import { createStoreClient, type StoreClient, type StoreEndpoint } from '../../server/stores/redis-client.js';
import { assertTargetsAllowed, seedTargets, type TargetPolicy } from '../../server/stores/target-policy.js';

export interface StoreProbe {
  ok: boolean;
  latencyMs: number | null;
  redisVersion: string | null;
  mode: 'standalone' | 'cluster';
  error?: string;
}

/**
 * A failed probe answers no sooner than this, whatever failed: a closed port
 * fails at once, a non-Redis service a little later, a silent one at the
 * deadline, and the difference would make the test route a port scanner. It
 * is also when the probe gives up, so a silent port answers then too.
 */
export const probeFailureMinimumMs = 2500;

function infoField(info: string, field: string): string | null {
  return new RegExp(`^${field}:(.+)$`, 'm').exec(info)?.[1]?.trim() ?? null;
}

async function measure(client: StoreClient, requestedMode: StoreProbe['mode']): Promise<StoreProbe> {
  await client.connect();
  const started = performance.now();
  await client.ping();
  const latencyMs = Math.round((performance.now() - started) * 100) / 100;
  // A cluster's PING lands on one node; every master must answer (and pass the target policy), not just that one.
  if (client instanceof Cluster) await Promise.all(client.nodes('master').map((node) => node.ping()));
  // A cluster answers INFO per node; any master tells the version and mode.
  const info = await (client instanceof Cluster ? client.nodes('master')[0]!.info('server') : client.info('server'));
  const reported = infoField(info, 'redis_mode');
  const mode = reported === 'cluster' || reported === 'standalone' ? reported : requestedMode;
  return { ok: true, latencyMs, redisVersion: infoField(info, 'redis_version'), mode };
}

/** The refusal of the target policy, wherever ioredis put it (cluster errors carry the last node's). */
function targetRefusal(error: unknown): AppError | null {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    if (current instanceof AppError && current.code === 'CONNECTION_TARGET_FORBIDDEN') return current;
    const next: unknown =
      (current as { lastNodeError?: unknown; cause?: unknown }).lastNodeError ?? (current as { cause?: unknown }).cause;
    current = next;
  }
  return null;
}

/** One answer for every failure but a refused password: which one it was is not the caller's to learn. */
function failureMessage(target: StoreEndpoint, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/NOAUTH|WRONGPASS|invalid password/i.test(message)) return 'authentication was refused';
  const seeds = seedTargets(target.url);
  const first = `${seeds[0]!.host}:${seeds[0]!.port}`;
  return `no Redis server answered at ${seeds.length > 1 ? `${first} (or the ${seeds.length - 1} other seed nodes)` : first}`;
}

/**
 * Connects once with a fresh client (never the shared one: a test must not
 * disturb live traffic), PINGs, reads the server version, and gives up after
 * 2.5 seconds. With SERVICE_CONNECTION_ALLOW, every seed is checked before
 * anything is contacted (400 CONNECTION_TARGET_FORBIDDEN), and so is every
 * node a cluster reports. Other failures come back as `ok: false`.
 */
export async function probeStore(target: StoreEndpoint, policy?: TargetPolicy): Promise<StoreProbe> {
  const requestedMode = target.cluster ? 'cluster' : 'standalone';
  if (policy) await assertTargetsAllowed(policy, target.url);
  const started = performance.now();
  const client = createStoreClient(target, { connectMs: 2000, commandMs: 1500 }, { reconnect: false, policy });
  // A one-shot client rejects with a bare "Connection is closed"; the reason came as an 'error' event.
  let reason: unknown;
  client.on('error', (error: Error) => (reason ??= error));
  client.on('node error', (error: Error) => (reason ??= error));
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('Command timed out')), probeFailureMinimumMs);
  });
  try {
    const probe = await Promise.race([measure(client, requestedMode), deadline]);
    const refusal = targetRefusal(reason);
    if (refusal) throw refusal;
    return probe;
  } catch (error) {
    const refusal = targetRefusal(reason) ?? targetRefusal(error);
    if (refusal) throw refusal;
    await sleep(Math.max(0, probeFailureMinimumMs - (performance.now() - started)));
    return {
      ok: false,
      latencyMs: null,
      redisVersion: null,
      mode: requestedMode,
      error: failureMessage(target, reason ?? error),
    };
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
}
