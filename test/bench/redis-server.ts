import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';

export interface RedisProcess {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * A throwaway redis-server on a loopback port, keeping nothing on disk; with
 * `keptDir`, one that loads the dump.rdb a run saved there (`--keep-store`).
 */
export async function startRedis(port: number, keptDir?: string): Promise<RedisProcess> {
  const dir = keptDir ?? (await mkdtemp(path.join(tmpdir(), `bench-redis-${port}-`)));
  await mkdir(dir, { recursive: true });
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
  // A kept store answers LOADING while it reads its dump: wait until it is served.
  while ((await probe.info('persistence')).includes('loading:1')) await new Promise((r) => setTimeout(r, 200));
  await probe.ping();
  probe.disconnect();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      if (!keptDir) await rm(dir, { recursive: true, force: true });
    },
  };
}
