import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { startRedisServer, type RedisServer } from '../../helpers/redis-server.js';

/** A password-protected redis-server of the suite's own (ports 6420-6429), so secrets can be looked for. */
export interface OwnRedis {
  server: RedisServer;
  password: string;
  /** Connection URL with the password, as a saved connection takes it. */
  url: string;
  /** BullMQ / ioredis connection options. */
  connection: { host: string; port: number; password: string };
  /** A client of the test's own (disconnect it when done). */
  client(): Redis;
  stop(): Promise<void>;
}

export async function startOwnRedis(port: number, password: string): Promise<OwnRedis> {
  const directory = await mkdtemp(path.join(tmpdir(), `bullpen-reliability-${port}-`));
  const server = await startRedisServer(['--port', String(port), '--requirepass', password], directory);
  const connection = { host: '127.0.0.1', port, password };
  return {
    server,
    password,
    url: `redis://:${encodeURIComponent(password)}@127.0.0.1:${port}/0`,
    connection,
    client: () => new Redis({ ...connection, maxRetriesPerRequest: 1 }),
    async stop() {
      process.kill(server.pid, 'SIGCONT');
      await server.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
