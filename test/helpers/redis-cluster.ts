import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';

const run = promisify(execFile);

export interface LocalCluster {
  ports: number[];
  /** Seed list in the form connections take: `redis://127.0.0.1:7010,redis://...`. */
  url: string;
  stop(): Promise<void>;
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function ping(port: number, command: (redis: Redis) => Promise<boolean>): Promise<boolean> {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    return await command(redis);
  } finally {
    redis.disconnect();
  }
}

/** Starts a masters-only Redis Cluster on loopback `ports` (one redis-server each); `stop` kills them by PID. */
export async function startLocalCluster(ports: number[]): Promise<LocalCluster> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bullpen-cluster-'));
  const children: ChildProcess[] = ports.map((port) =>
    spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`,
        '--dir', dir, '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    ),
  );
  const stop = async () => {
    await Promise.all(
      children.map((child) => {
        if (child.exitCode !== null || child.pid === undefined) return Promise.resolve();
        const exited = new Promise((resolve) => child.once('exit', resolve));
        process.kill(child.pid, 'SIGKILL');
        return exited;
      }),
    );
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) await waitFor(() => ping(port, async (r) => (await r.ping()) === 'PONG'), `redis-server on ${port}`);
    await run('redis-cli', ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '0', '--cluster-yes']);
    for (const port of ports) {
      await waitFor(() => ping(port, async (r) => (await r.cluster('INFO')).includes('cluster_state:ok')), `cluster state ok on ${port}`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { ports, url: ports.map((port) => `redis://127.0.0.1:${port}`).join(','), stop };
}
