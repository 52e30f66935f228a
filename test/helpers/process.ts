import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { compiledEntrySync } from './compiled-service.js';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

export interface ServiceProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<string>;
}

/**
 * Runs the service with only the given environment (plus PATH): by default
 * `server/main.ts` compiled from the sources once per test process
 * (compiled-service.ts), as `npm start` runs it, without the TypeScript
 * loader's CPU on every start. With `nodeArgs` it runs `node ...nodeArgs
 * --import tsx server/main.ts` (flags like --expose-gc, and preloads written
 * in TypeScript). With `entry` (a compiled bundle) it runs `node ...nodeArgs entry`.
 */
export function startServiceProcess(
  env: Record<string, string>,
  options: { nodeArgs?: string[]; entry?: string } = {},
): ServiceProcess {
  const [command, args] = options.entry
    ? [process.execPath, [...(options.nodeArgs ?? []), options.entry]]
    : options.nodeArgs
      ? [process.execPath, [...options.nodeArgs, '--import', 'tsx', 'server/main.ts']]
      : [process.execPath, [compiledEntrySync('server/main.ts')]];
  const child = spawn(command, args, {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    waitForOutput(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const poll = setInterval(() => {
          const match = output.match(pattern);
          if (match) {
            clearInterval(poll);
            resolve(match[0]);
          } else if (Date.now() - started > timeoutMs || child.exitCode !== null) {
            clearInterval(poll);
            reject(new Error(`no ${pattern} in output:\n${output}`));
          }
        }, 50);
      });
    },
  };
}

/**
 * The machine's network trust and proxy settings, for child processes started with an otherwise clean
 * environment that reach the npm registry. npm run by the project's own Node reads its global npmrc
 * from that Node's prefix, so the machine's `cafile` is not seen: it is passed on as npm_config_cafile
 * (read once through the machine's own Node), beside the CA and proxy variables Node itself honours.
 */
export function networkEnv(): Record<string, string> {
  const names = [
    'NODE_EXTRA_CA_CERTS',
    'SSL_CERT_FILE',
    'SSL_CERT_DIR',
    'HTTPS_PROXY',
    'HTTP_PROXY',
    'NO_PROXY',
    'https_proxy',
    'http_proxy',
    'no_proxy',
  ];
  const passed = Object.fromEntries(
    names.filter((name) => process.env[name]).map((name) => [name, process.env[name]!]),
  );
  const cafile = machineNpmCafile();
  return cafile ? { ...passed, npm_config_cafile: cafile } : passed;
}

let machineCafile: string | null | undefined;
function machineNpmCafile(): string | null {
  if (machineCafile === undefined) {
    try {
      const value = execFileSync('npm', ['config', 'get', 'cafile'], {
        env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: process.env.HOME ?? '/' },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
      machineCafile = value && value !== 'null' && value !== 'undefined' ? value : null;
    } catch {
      machineCafile = null;
    }
  }
  return machineCafile;
}
