import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { compiledCliEntry } from './compiled-service.js';
import { repoRoot } from './process.js';

/** The installed bin, as `npm ci` links it: the compiled CLI (client/dist, built at prepare). */
export const bullpenBin = path.join(repoRoot, 'node_modules/.bin/bullpen');
/**
 * The CLI's source compiled once per test process (compiled-service.ts) and run on this Node, so tests
 * see the code as it is now without paying the TypeScript loader's ~0.5 s of CPU on every run.
 */
const sourceCommand = (): [string, ...string[]] => [process.execPath, compiledCliEntry()];

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** The child's whole environment besides PATH. */
  env?: Record<string, string>;
  /** Written to stdin, which is then closed. */
  input?: string;
  path?: string;
  /** Run the installed bin (compiled JavaScript, on the `node` PATH finds) instead of the source. */
  compiled?: boolean;
  /**
   * Run it on a pseudo-terminal (util-linux `script`): stdin, stdout and stderr
   * are a TTY, and stdout carries all output. Write input once the prompt shows,
   * and keep stdin open until the CLI ends (`script` hangs up on EOF). The
   * shell `script` starts execs the CLI, so Ctrl-C (`\u0003`) reaches the CLI
   * alone, as in a terminal.
   */
  terminal?: boolean;
}

/** A word `sh -c` reads back as `word`. */
const quoted = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/** Starts the `bullpen` CLI as a child process (one process: no launcher in between). */
export function spawnBullpen(
  args: string[],
  options: CliOptions = {},
): { child: ChildProcess; result: Promise<CliRun>; stdout(): string } {
  const [command, ...prefix]: [string, ...string[]] = options.compiled ? [bullpenBin] : sourceCommand();
  const argv = options.terminal
    ? ['script', '-qefc', `exec ${[command, ...prefix, ...args].map(quoted).join(' ')}`, '/dev/null']
    : [command, ...prefix, ...args];
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: repoRoot,
    env: { PATH: options.path ?? process.env.PATH ?? '', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  if (options.input !== undefined) child.stdin!.end(options.input);
  const result = new Promise<CliRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, result, stdout: () => stdout };
}

/** Runs `bullpen args…` to completion. */
export function runBullpen(args: string[], options: CliOptions = {}): Promise<CliRun> {
  const { child, result } = spawnBullpen(args, options);
  if (options.input === undefined) child.stdin!.end();
  return result;
}
