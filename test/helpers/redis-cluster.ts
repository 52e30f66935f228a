import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startRedisServer, type RedisServer } from './redis-server.js';

const run = promisify(execFile);

export interface LocalCluster {
  ports: number[];
  /** Seed list in the form connections take: `redis://127.0.0.1:7010,redis://...`. */
  url: string;
  stop(): Promise<void>;
}

async function waitForClusterOk(ports: number[]): Promise<void> {
  for (let attempt = 0; attempt < 150; attempt++) {
    const states = await Promise.all(
      ports.map((port) => run('redis-cli', ['-p', String(port), 'cluster', 'info']).then((out) => out.stdout)),
    );
    if (states.every((state) => state.includes('cluster_state:ok'))) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('cluster did not reach cluster_state:ok');
}

/** Starts a masters-only Redis Cluster on loopback `ports`, one redis-server each; `stop` kills them by PID. */
export async function startLocalCluster(ports: number[]): Promise<LocalCluster> {
  const directory = await mkdtemp(path.join(tmpdir(), 'bullpen-cluster-'));
  const nodes: RedisServer[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await rm(directory, { recursive: true, force: true });
  };
  try {
    for (const port of ports) {
      nodes.push(
        await startRedisServer(
          ['--port', String(port), '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`],
          directory,
        ),
      );
    }
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    await waitForClusterOk(ports);
  } catch (error) {
    await stop();
    throw error;
  }
  return { ports, url: ports.map((port) => `redis://127.0.0.1:${port}`).join(','), stop };
}
