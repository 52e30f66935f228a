import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { networkEnv, repoRoot } from '../../helpers/process.js';

/**
 * The project outside the repository that packed-client.test.ts installs @bullpen/client into:
 * npm as its scripts run it, the scripts it compiles (one typed, one wrong on purpose) and its tsconfig.
 */

export const run = promisify(execFile);

/** npm with a clean environment: the project's Node 22 first on PATH, as for any npm script. */
export function npm(args: string[], cwd: string) {
  const env = {
    PATH: `${path.join(repoRoot, 'node_modules/.bin')}:${process.env.PATH}`,
    HOME: process.env.HOME ?? tmpdir(),
    ...networkEnv(),
  };
  return run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    env,
    maxBuffer: 16 * 1024 * 1024,
  });
}

export const typedScript = `
import { BullpenError, createBullpenClient, type ErrorCode } from '@bullpen/client';

const client = createBullpenClient({ baseUrl: process.env.BULLPEN_URL! });
const connectionId = 'main';
const { queues } = await client.queues.list.query({ connectionId });
const failed = await client.jobs.list.query({ connectionId, queueName: 'packed', status: 'failed' });
const retried = await client.jobs.retry.mutate({ connectionId, queueName: 'packed', jobIds: failed.jobs.map((job) => job.id) });
let error: { code: ErrorCode | 'NETWORK_ERROR'; status: number; typed: boolean } | null = null;
try {
  await client.jobs.get.query({ connectionId, queueName: 'packed', jobId: 'no-such-job' });
} catch (caught) {
  if (caught instanceof BullpenError) error = { code: caught.code, status: caught.status, typed: true };
}
// A recursive shape stays typed all the way down: a grandchild's id is a string.
export const grandchildId = (tree: Awaited<ReturnType<typeof client.jobs.tree.query>>) => tree.root.children[0]?.children[0]?.id.toUpperCase();
console.log(JSON.stringify({ node: process.version, queues: queues.map((queue) => queue.name), failed: failed.jobs.map((job) => job.id), succeeded: retried.succeeded, error }));
`;

/** Wrong on purpose: a number where the connection id is a string, and a procedure that does not exist. */
export const wrongScript = `
import { createBullpenClient } from '@bullpen/client';
const client = createBullpenClient({ baseUrl: 'http://localhost:3000' });
await client.queues.list.query({ connectionId: 42 });
await client.queues.explode.mutate();
`;

export const tsconfig = {
  compilerOptions: {
    strict: true,
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023', 'DOM'],
    types: ['node'],
    outDir: 'out',
  },
  include: ['check.ts', 'wrong.ts'],
};
