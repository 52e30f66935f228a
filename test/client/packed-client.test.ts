import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue, Worker } from 'bullmq';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../helpers/app.js';
import { waitFor } from '../helpers/jobs.js';
import { networkEnv, repoRoot } from '../helpers/process.js';
import { descendantPids, waitUntilGone } from '../helpers/process-tree.js';
import { storeFixture } from '../helpers/stores.js';
import { npm, run, tsconfig, typedScript, wrongScript } from './support/client-user-project.js';

/**
 * @bullpen/client as a user gets it: `npm pack`, installed with `npm install` into a project outside
 * the repository, compiled with `tsc --strict`, run with plain `node` (the machine's Node 20 and the
 * project's Node 22), and its `bullpen` command run from that install.
 */
const machineNode = '/usr/bin/node';
const store = storeFixture();
let app: TestApp;
let queue: Queue;
let project: string;

/** Adds a job and lets a worker fail it; resolves with its id. */
async function failOneJob(): Promise<string> {
  await queue.drain(); // the job an earlier run retried would fail again beside the new one
  const job = await queue.add('fails', {});
  const worker = new Worker(
    'packed',
    async () => {
      throw new Error('refused');
    },
    store.bullmq,
  );
  await waitFor(async () => (await queue.getFailedCount()) === 1, 10_000, 'the job to fail');
  await worker.close();
  return job.id!;
}

beforeAll(async () => {
  app = await bootApp({ env: { ...store.env, SERVICE_QUEUE_LIST_CACHE_MS: '0' } });
  queue = new Queue('packed', store.bullmq);

  project = await mkdtemp(path.join(tmpdir(), 'bullpen-client-user-'));
  const { stdout } = await npm(['pack', '--pack-destination', project, '--json'], path.join(repoRoot, 'client'));
  const [{ filename }] = JSON.parse(stdout.slice(stdout.indexOf('['))) as [{ filename: string }];
  await writeFile(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'bullpen-user', private: true, type: 'module' }),
  );
  const typesNode = JSON.parse(
    await readFile(path.join(repoRoot, 'node_modules/@types/node/package.json'), 'utf8'),
  ).version;
  const typescript = JSON.parse(
    await readFile(path.join(repoRoot, 'node_modules/typescript/package.json'), 'utf8'),
  ).version;
  await npm(
    ['install', `./${filename}`, `typescript@${typescript}`, `@types/node@${typesNode}`, '--prefer-offline'],
    project,
  );
}, 600_000);

afterAll(async () => {
  await queue?.close();
  await app?.close();
  await store.cleanup();
  if (project) await rm(project, { recursive: true, force: true });
});

describe('the packed @bullpen/client installed outside the repository', () => {
  it('ships compiled JavaScript and declarations with no path into the service source, depending only on tRPC', async () => {
    const installed = path.join(project, 'node_modules/@bullpen/client');
    const manifest = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8'));
    const rootManifest = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8'));
    expect(manifest.private).toBeUndefined();
    expect(manifest.version).toBe(rootManifest.version);
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['@trpc/client', '@trpc/server']);
    const files = (await readdir(installed, { recursive: true })).filter((file) => !file.startsWith('node_modules'));
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'bin/bullpen.js', 'README.md']));
    const declarations = await Promise.all(
      files.filter((file) => file.endsWith('.d.ts')).map((file) => readFile(path.join(installed, file), 'utf8')),
    );
    expect(declarations.join('\n')).not.toMatch(/routers\/|contracts\/|server\//);
  });

  it('compiles a typed script with tsc --strict, and refuses a wrong call', async () => {
    await writeFile(path.join(project, 'tsconfig.json'), JSON.stringify(tsconfig));
    await writeFile(path.join(project, 'check.ts'), typedScript);
    await writeFile(path.join(project, 'wrong.ts'), wrongScript);
    // One compile of both files (tsc is slow on a busy machine): errors in wrong.ts only, check.js emitted.
    const errors = await run(machineNode, ['node_modules/typescript/bin/tsc', '-p', '.'], { cwd: project }).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    expect(errors).toMatch(/wrong\.ts\(4,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/);
    expect(errors).toMatch(/wrong\.ts\(5,\d+\): error TS2339: Property 'explode' does not exist/);
    expect(errors.split('\n').filter((line) => line.includes('error TS') && !line.startsWith('wrong.ts'))).toEqual([]);
  }, 180_000);

  it.each([
    ["the machine's Node 20", machineNode, /^v20\./],
    ["the project's Node 22", path.join(repoRoot, 'node_modules/node/bin/node'), /^v22\./],
  ])(
    'runs with plain node on %s: lists queues, retries a failed job, reads a typed error',
    async (_name, node, version) => {
      const failedJobId = await failOneJob();
      const { stdout } = await run(node, ['out/check.js'], { cwd: project, env: { BULLPEN_URL: app.url } });
      const result = JSON.parse(stdout);
      expect(result.node).toMatch(version);
      expect(result.queues).toContain('packed');
      expect(result.failed).toEqual([failedJobId]);
      expect(result.succeeded).toBe(1);
      expect(result.error).toEqual({ code: 'NOT_FOUND', status: 404, typed: true });
      expect(await queue.getFailedCount()).toBe(0);
    },
    60_000,
  );

  it('loads in a browser bundle without Node built-ins', async () => {
    const bundle = await build({
      entryPoints: [path.join(project, 'node_modules/@bullpen/client/dist/index.js')],
      absWorkingDir: project,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    expect(bundle.errors).toEqual([]);
    expect(
      Object.keys(bundle.metafile.inputs).filter(
        (input) => input.startsWith('node:') || !input.includes('node_modules/'),
      ),
    ).toEqual([]);
  });

  it("runs `npx bullpen` from the install on the machine's Node, and a kill of its PID leaves no process", async () => {
    const env = { PATH: '/usr/bin:/bin', HOME: process.env.HOME ?? tmpdir(), BULLPEN_URL: app.url, ...networkEnv() };
    const listed = await run('npx', ['--no-install', 'bullpen', 'queues', '--json'], { cwd: project, env });
    expect(JSON.parse(listed.stdout).queues.map((listedQueue: { name: string }) => listedQueue.name)).toContain(
      'packed',
    );

    const watch = spawn(path.join(project, 'node_modules/.bin/bullpen'), ['watch', 'packed', '--json'], {
      cwd: project,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    watch.stdout.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => watch.on('exit', (code) => resolve(code)));
    await waitFor(() => app.services.events.subscribers === 1, 15_000, 'the CLI to subscribe');
    await queue.add('seen', {});
    await waitFor(() => output.includes('"type":"added"'), 10_000, 'an event from the CLI');
    const processes = [watch.pid!, ...(await descendantPids(watch.pid!))];
    expect(processes).toHaveLength(1);
    watch.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await waitUntilGone(processes)).toEqual([]);
  }, 60_000);
});
