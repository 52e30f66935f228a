import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { spawnRedis, type SpawnedRedis } from '../../helpers/spawn-redis.js';

/** A loopback port nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface OwnRedis {
  readonly server: SpawnedRedis;
  readonly redis: Redis;
  readonly connection: { host: string; port: number };
}

/** A redis-server of the scenario's own on a free loopback port (faults stay off the shared one), stopped after the file. */
export function ownRedis(extraArgs: string[] = []): OwnRedis {
  let server: SpawnedRedis | undefined;
  let redis: Redis | undefined;
  let directory: string | undefined;
  beforeAll(async () => {
    // Its own working directory: a master writes an RDB file for a replica's sync, which must not land in the repository.
    directory = await mkdtemp(path.join(tmpdir(), 'bullpen-chaos-redis-'));
    server = await spawnRedis(await freePort(), ['--dir', directory, ...extraArgs]);
    redis = new Redis({ host: '127.0.0.1', port: server.port, maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
    if (directory) await rm(directory, { recursive: true, force: true });
  });
  return {
    get server() {
      return server!;
    },
    get redis() {
      return redis!;
    },
    get connection() {
      return { host: '127.0.0.1', port: server!.port };
    },
  };
}
