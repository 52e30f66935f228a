import { execFile } from 'node:child_process';
import { cp, mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { repoRoot } from '../../helpers/process.js';

/**
 * The Dockerfile read and its steps replayed without a container engine, for dockerfile.test.ts:
 * its parser, the build context (.dockerignore applied), COPY into a stage's directory standing
 * for the image's /app, and which RUN commands build the app.
 */

export const run = promisify(execFile);
export const imageWorkdir = '/app';
/**
 * Commands of RUN steps that shape the image's own file system rather than build the app: not run
 * here (cleaning the npm cache would empty this machine's shared cache).
 */
const imageOnlyCommands = [/^npm cache clean --force$/, /^mkdir -p \/data$/, /^chown node:node \/data$/];

/** The commands of a RUN step that build the app, joined again with `&&`. */
export const appCommands = (step: string) =>
  step
    .split(/\s*&&\s*/)
    .filter((command) => !imageOnlyCommands.some((pattern) => pattern.test(command)))
    .join(' && ');

export interface Stage {
  name: string;
  env: Record<string, string>;
  steps: Array<{ op: string; args: string }>;
}

export function parseDockerfile(text: string): { stages: Stage[]; cmd: string[]; healthcheck: string } {
  const lines = text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const stages: Stage[] = [];
  let cmd: string[] = [];
  let healthcheck = '';
  for (const line of lines) {
    const [, op = '', args = ''] = line.match(/^(\w+)\s+(.*)$/) ?? [];
    const stage = stages.at(-1);
    if (op === 'FROM') stages.push({ name: args.split(/\s+AS\s+/i)[1] ?? String(stages.length), env: {}, steps: [] });
    else if (op === 'ENV') for (const [, key, value] of args.matchAll(/(\w+)=(\S+)/g)) stage!.env[key!] = value!;
    else if (op === 'CMD') cmd = JSON.parse(args);
    else if (op === 'HEALTHCHECK') healthcheck = args.replace(/^.*?\bCMD\s+/, '');
    else stage!.steps.push({ op, args });
  }
  return { stages, cmd, healthcheck };
}

/** The build context: the repository's files as a clean checkout has them, minus .dockerignore. */
export async function contextFiles(): Promise<string[]> {
  const { stdout } = await run('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  const ignored = (await readFile(path.join(repoRoot, '.dockerignore'), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((pattern) => new RegExp(`^${pattern.replace(/\./g, '\\.').replace(/\*/g, '[^/]*')}(/|$)`));
  return stdout.split('\n').filter((file) => file && !ignored.some((pattern) => pattern.test(file)));
}

const inImage = (dir: string, file: string) =>
  path.join(dir, path.relative(imageWorkdir, path.resolve(imageWorkdir, file)));

export async function copyStep(
  args: string,
  dir: string,
  stageDirs: Map<string, string>,
  context: string[],
): Promise<void> {
  const from = args.match(/--from=(\S+)\s+/)?.[1];
  const parts = args.replace(/--from=\S+\s+/, '').split(/\s+/);
  const destination = parts.pop()!;
  for (const source of parts) {
    if (from) {
      await cp(inImage(stageDirs.get(from)!, source), inImage(dir, destination), { recursive: true });
      continue;
    }
    const files =
      source === '.'
        ? context
        : context.filter((file) => file === source || file.startsWith(`${source.replace(/\/$/, '')}/`));
    expect(files, `COPY ${source}`).not.toEqual([]);
    for (const file of files) {
      const target =
        destination.endsWith('/') || source === '.' || parts.length > 1
          ? path.join(inImage(dir, destination), source === '.' ? file : path.basename(file))
          : inImage(dir, destination);
      await mkdir(path.dirname(target), { recursive: true });
      await cp(path.join(repoRoot, file), target);
    }
  }
}

export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
