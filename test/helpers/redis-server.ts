import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** A redis-server this test started: stop it by its PID, restart it on the same arguments. */
export interface RedisServer {
  readonly pid: number;
  stop(): Promise<void>;
  restart(): Promise<void>;
}

const readyTimeoutMs = 10_000;

function launch(args: string[], cwd: string): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', ...args],
    {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`redis-server ${args.join(' ')} not ready:\n${output}`)),
      readyTimeoutMs,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.on('exit', (code) => fail(new Error(`redis-server exited (${code}):\n${output}`)));
  });
}

/**
 * Starts a throwaway redis-server on loopback (no persistence) with extra
 * arguments, e.g. `['--port', '6380', '--requirepass', 'x']`, run in `cwd`.
 */
export async function startRedisServer(args: string[], cwd: string): Promise<RedisServer> {
  let child = await launch(args, cwd);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    process.kill(child.pid!, 'SIGKILL');
    await exited;
  };
  return {
    get pid() {
      return child.pid!;
    },
    stop,
    async restart() {
      await stop();
      child = await launch(args, cwd);
    },
  };
}
