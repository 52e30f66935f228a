import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/process.js';

/**
 * `npm start`'s script (server/build/start.mjs) in a scratch copy whose service is one line: it runs
 * dist/ when fresh, rebuilds when dist/ is missing or older than the sources and esbuild is
 * installed, and otherwise says what to run.
 */
let copy: string;

beforeEach(async () => {
  copy = await mkdtemp(path.join(tmpdir(), 'bullpen-start-'));
  await cp(path.join(repoRoot, 'server/build'), path.join(copy, 'server/build'), { recursive: true });
  await cp(path.join(repoRoot, 'client/build'), path.join(copy, 'client/build'), { recursive: true });
  await writeFile(path.join(copy, 'package.json'), '{ "type": "module" }');
  await mkdir(path.join(copy, 'server'), { recursive: true });
  await writeFile(path.join(copy, 'server/main.ts'), "const from: string = 'compiled source';\nconsole.log(from);\n");
});
afterEach(() => rm(copy, { recursive: true, force: true }));

function start(): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['server/build/start.mjs'], { cwd: copy }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, output: stdout + stderr }),
    );
  });
}

async function writeDist(text: string, ageSeconds: number): Promise<void> {
  const entry = path.join(copy, 'dist/server/main.js');
  await mkdir(path.dirname(entry), { recursive: true });
  await writeFile(entry, text);
  const when = new Date(Date.now() - ageSeconds * 1000);
  await utimes(entry, when, when);
}

describe('npm start without a compiler installed', () => {
  it('says what to run when dist/ is missing', async () => {
    expect(await start()).toEqual({
      code: 1,
      output: expect.stringMatching(/^bullpen: dist\/ is missing and no compiler is installed: run `npm install`/),
    });
  });

  it('says what to run when dist/ is older than the sources', async () => {
    await writeDist("console.log('stale dist');", 60);
    expect(await start()).toEqual({
      code: 1,
      output: expect.stringMatching(/^bullpen: dist\/ is older than the sources and no compiler is installed/),
    });
  });

  it('runs dist/ as it is when it is newer than the sources', async () => {
    const past = new Date(Date.now() - 120_000);
    await utimes(path.join(copy, 'server/main.ts'), past, past);
    await utimes(path.join(copy, 'package.json'), past, past);
    await writeDist("console.log('fresh dist');", 0);
    expect(await start()).toEqual({ code: 0, output: 'fresh dist\n' });
  });
});

describe('npm start with esbuild installed', () => {
  it('rebuilds a stale dist/ from the sources, then runs it', async () => {
    await symlink(path.join(repoRoot, 'node_modules'), path.join(copy, 'node_modules'));
    await writeDist("console.log('stale dist');", 60);
    const { code, output } = await start();
    expect(code).toBe(0);
    expect(output).toMatch(/^bullpen: rebuilt dist\/ in \d+ ms$/m);
    expect(output).toMatch(/^compiled source$/m);
    expect(output).not.toContain('stale dist');
  });
});
