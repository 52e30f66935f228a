import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceNodeFlags } from '../../server/build/node-flags.mjs';
import { networkEnv, repoRoot } from '../helpers/process.js';
import { isListening } from '../helpers/process-tree.js';
import { redisUrl, uniquePrefix } from '../helpers/stores.js';
import {
  appCommands,
  contextFiles,
  copyStep,
  freePort,
  imageWorkdir,
  parseDockerfile,
  run,
} from './support/dockerfile-steps.js';

/**
 * No container engine here: this runs the Dockerfile's own steps (read from it, so they cannot
 * drift) in a clean copy of the repository — each stage in its own directory standing for the image's
 * /app — then starts the service with the image's CMD and environment and runs its HEALTHCHECK.
 */

let scratch: string;
let runtimeDir: string;
let parsed: ReturnType<typeof parseDockerfile>;
/** The project's Node 22 first, as the image's Node 22 would be. */
const env = {
  PATH: `${path.join(repoRoot, 'node_modules/node/bin')}:${process.env.PATH}`,
  HOME: process.env.HOME ?? tmpdir(),
  ...networkEnv(),
};

beforeAll(async () => {
  parsed = parseDockerfile(await readFile(path.join(repoRoot, 'Dockerfile'), 'utf8'));
  scratch = await mkdtemp(path.join(tmpdir(), 'bullpen-image-'));
  const context = await contextFiles();
  const stageDirs = new Map<string, string>();
  for (const stage of parsed.stages) {
    const dir = path.join(scratch, stage.name);
    await mkdir(dir, { recursive: true });
    stageDirs.set(stage.name, dir);
    for (const { op, args } of stage.steps) {
      if (op === 'COPY') await copyStep(args, dir, stageDirs, context);
      else if (op === 'RUN' && appCommands(args)) {
        await run('sh', ['-c', appCommands(args)], {
          cwd: dir,
          env: { ...env, ...stage.env },
          maxBuffer: 64 * 1024 * 1024,
        });
      } else if (op === 'WORKDIR') expect(args).toBe(imageWorkdir);
    }
  }
  runtimeDir = stageDirs.get(parsed.stages.at(-1)!.name)!;
}, 900_000);

afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('the Dockerfile, run without a container engine', () => {
  it('uses the official Node 22 image, a non-root user, production dependencies only and the compiled output', async () => {
    const text = await readFile(path.join(repoRoot, 'Dockerfile'), 'utf8');
    expect(text.match(/^FROM node:22\S*/gm)).toHaveLength(2);
    expect(text).toMatch(/^USER node$/m);
    expect(text).toMatch(/^RUN npm ci --omit=dev/m);
    expect(text).toMatch(/^VOLUME \/data$/m);
    expect(parsed.cmd).toEqual(['node', ...serviceNodeFlags, 'dist/server/main.js']);
    const modules = path.join(runtimeDir, 'node_modules');
    const entries = await readdir(modules);
    const scoped = await Promise.all(
      entries
        .filter((entry) => entry.startsWith('@'))
        .map(async (scope) => (await readdir(path.join(modules, scope))).map((name) => `${scope}/${name}`)),
    );
    const installed = [...entries.filter((entry) => !entry.startsWith('@')), ...scoped.flat()];
    expect(installed).toEqual(expect.arrayContaining(['express', 'bullmq', '@mikro-orm/core', '@trpc/server']));
    expect(installed).not.toContain('@bullpen/client');
    // typescript stays (@trpc/server declares it a peer), and @trpc/client (the lockfile holds it for the client workspace).
    for (const devTool of ['node', 'tsx', 'esbuild', 'vitest', 'playwright-core', 'autocannon'])
      expect(installed).not.toContain(devTool);
    const { stdout: size } = await run('du', ['-sm', path.join(runtimeDir, 'node_modules')]);
    const megabytes = Number(size.split('\t')[0]);
    console.info(`--omit=dev node_modules: ${megabytes} MB`);
    expect(megabytes).toBeLessThan(150);
  });

  it("starts with the image's CMD and environment, answers, passes its HEALTHCHECK and stops on SIGTERM", async () => {
    const port = await freePort();
    const prefix = uniquePrefix('img');
    const serviceEnv = {
      ...env,
      ...parsed.stages.at(-1)!.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      // What a production deployment must set (docs/operations.md, "Deploying"): the browser origin.
      APP_BASE_URL: `http://127.0.0.1:${port}`,
      SERVICE_EMBEDDED_DIR: path.join(scratch, 'data'),
      SERVICE_ENV_CONNECTIONS: 'true',
      SERVICE_REDIS_URL_MAIN: `${redisUrl}/0`,
      SERVICE_REDIS_URL_MAIN_PREFIX: prefix,
    };
    const [command, ...args] = parsed.cmd;
    const service = spawn(command!, args, { cwd: runtimeDir, env: serviceEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    service.stdout.on('data', (chunk) => (output += chunk));
    service.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => service.on('exit', (code) => resolve(code)));
    try {
      const url = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 30_000;
      while (!(await isListening(url)) && Date.now() < deadline && service.exitCode === null)
        await new Promise((resolve) => setTimeout(resolve, 200));
      const health = await fetch(`${url}/api/health`);
      expect(health.status, output).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok', checks: { persistence: { ok: true } } });
      await run('sh', ['-c', parsed.healthcheck], { env: serviceEnv });
    } finally {
      service.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 60_000);
});
