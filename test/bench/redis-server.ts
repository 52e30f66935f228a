import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';

export interface RedisProcess {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** A throwaway redis-server on a loopback port, keeping nothing on disk. */
export async function startRedis(port: number): Promise<RedisProcess> {
  const dir = await mkdtemp(path.join(tmpdir(), `bench-redis-${port}-`));
  const child: ChildProcess = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--enable-debug-command',
      'local',
      '--dir',
      dir,
    ],
    {
      stdio: 'ignore',
    },
  );
  const probe = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    retryStrategy: () => 100,
    maxRetriesPerRequest: 50,
  });
  probe.on('error', () => undefined); // refused until the server is up
  await probe.connect().catch(() => undefined);
  await probe.ping();
  probe.disconnect();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
