import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLibrary, buildLibraryTypes, libraryEntry, libraryTypes } from '../../server/build/build.mjs';
import { repoRoot } from '../helpers/process.js';
import { seedQueue } from '../helpers/queues.js';
import { storeFixture } from '../helpers/stores.js';

const run = promisify(execFile);
const node22 = path.join(repoRoot, 'node_modules/.bin/node');
const tsc = path.join(repoRoot, 'node_modules/.bin/tsc');

/**
 * `import { createBullpen } from 'bullpen'` as a user of the package does it:
 * package.json `exports` resolve to compiled JavaScript (dist/bullpen.js) and
 * declarations (dist/types/), which plain Node 22 and the TypeScript compiler
 * read without this repository's `bullpen-source` condition. `npm install` builds
 * them (prepare); the JavaScript is rebuilt here so the test reads this code.
 */
describe('the compiled package entry', () => {
  const fixture = storeFixture();
  let directory: string;
  beforeAll(async () => {
    await buildLibrary(await import('esbuild'));
    if (!existsSync(libraryTypes)) await buildLibraryTypes();
    await (await seedQueue(fixture.bullmq, 'emails', { waiting: 2 })).close();
    directory = await mkdtemp(path.join(repoRoot, 'test/in-process/consumer-'));
  }, 120_000);
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
    await fixture.cleanup();
  });

  it('runs in plain Node 22 (no TypeScript loader): lists a queue as the system', async () => {
    expect(libraryEntry.endsWith('.js')).toBe(true);
    const script = `const { createBullpen } = await import('bullpen');
      const bullpen = await createBullpen();
      const { queues } = await bullpen.api({ system: true }).queues.list({ connectionId: 'main' });
      console.log(JSON.stringify(queues.map((queue) => [queue.name, queue.jobCounts.waiting])));
      await bullpen.close();`;
    const env = { PATH: process.env.PATH ?? '', ...fixture.env, SERVICE_EMBEDDED_DIR: directory, LOG_LEVEL: 'error' };
    const { stdout } = await run(node22, ['--input-type=module', '-e', script], { cwd: repoRoot, env });
    expect(JSON.parse(stdout)).toEqual([['emails', 2]]);
  }, 60_000);

  it('is typed for a TypeScript consumer: a right call compiles, a wrong one does not', async () => {
    const consumer = (body: string) =>
      `import { createBullpen, type Bullpen } from 'bullpen';\nconst bullpen: Bullpen = await createBullpen();\n${body}\nexport {};\n`;
    await writeFile(
      path.join(directory, 'right.ts'),
      consumer(
        "const { queues } = await bullpen.api({ system: true }).queues.list({ connectionId: 'main' });\nconst names: string[] = queues.map((queue) => queue.name);\nconsole.log(names);",
      ),
    );
    await writeFile(
      path.join(directory, 'wrong.ts'),
      consumer('await bullpen.api({ system: true }).queues.list({ connectionId: 42 });'),
    );
    const options = [
      '--ignoreConfig',
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2023',
      '--skipLibCheck',
      '--types',
      'node',
    ];
    // One compiler run over both files (the router's declarations are loaded once): only wrong.ts may fail.
    const files = [path.join(directory, 'right.ts'), path.join(directory, 'wrong.ts')];
    const output = await run(tsc, [...options, ...files], { cwd: repoRoot }).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    const failing = new Set(
      [...output.matchAll(/^(\S+?\.ts)\(\d+,\d+\): error/gm)].map((match) => path.basename(match[1]!)),
    );
    expect([...failing]).toEqual(['wrong.ts']);
    expect(output).toMatch(/connectionId[\s\S]*number|number[\s\S]*string/);
  }, 120_000);
});
