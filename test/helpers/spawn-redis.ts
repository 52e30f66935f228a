import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';

export interface SpawnedRedis {
  port: number;
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a throwaway redis-server on a loopback port (no persistence) and waits until it answers. */
export async function spawnRedis(port: number, extraArgs: string[] = []): Promise<SpawnedRedis> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extraArgs],
    {
      stdio: 'ignore',
    },
  );
  const probe = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await probe.connect();
        await probe.ping();
        break;
      } catch (error) {
        if (attempt >= 50 || child.exitCode !== null)
          throw new Error(`redis-server on ${port} did not start: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    probe.disconnect();
  }
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    process: child,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
