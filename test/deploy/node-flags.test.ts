import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serviceNodeFlags } from '../../server/build/node-flags.mjs';
import { repoRoot } from '../helpers/process.js';

/** Every way the service is started passes the Node.js flags it is measured and tested with. */
describe('the service Node.js flags', () => {
  it('are a non-empty list of flags', () => {
    expect(serviceNodeFlags.length).toBeGreaterThan(0);
    for (const flag of serviceNodeFlags) expect(flag).toMatch(/^--[a-z-]+(=\d+)?$/);
  });

  it('are passed by `npm start`, before the start script', async () => {
    const scripts = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')).scripts as Record<string, string>;
    expect(scripts.start).toBe(`exec node ${serviceNodeFlags.join(' ')} server/build/start.mjs`);
  });

  it("are passed by the image's CMD, before the entry", async () => {
    const dockerfile = await readFile(path.join(repoRoot, 'Dockerfile'), 'utf8');
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    expect(JSON.parse(cmd!)).toEqual(['node', ...serviceNodeFlags, 'dist/server/main.js']);
  });

  it('are accepted by this Node.js (a flag it does not know stops it at once)', async () => {
    const { execFileSync } = await import('node:child_process');
    expect(execFileSync(process.execPath, [...serviceNodeFlags, '-e', 'process.stdout.write("ok")']).toString()).toBe('ok');
  });
});
