import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serviceEnvironment, serviceNodeFlags } from '../../server/build/node-flags.mjs';
import { repoRoot } from '../helpers/process.js';

/** Every way the service is started passes the Node.js flags it is measured and tested with. */
describe('the service Node.js flags', () => {
  it('are a non-empty list of flags', () => {
    expect(serviceNodeFlags.length).toBeGreaterThan(0);
    for (const flag of serviceNodeFlags) expect(flag).toMatch(/^--[a-z-]+(=\d+)?$/);
  });

  it('are passed by `npm start`, before the start script, with the environment (a value already set wins)', async () => {
    const scripts = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')).scripts as Record<
      string,
      string
    >;
    const environment = Object.entries(serviceEnvironment)
      .map(([name, value]) => `${name}=\${${name}:-${value}} `)
      .join('');
    expect(scripts.start).toBe(`${environment}exec node ${serviceNodeFlags.join(' ')} server/build/start.mjs`);
  });

  it("are passed by the image's CMD, before the entry, with the environment in the runtime stage's ENV", async () => {
    const dockerfile = await readFile(path.join(repoRoot, 'Dockerfile'), 'utf8');
    const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
    expect(JSON.parse(cmd!)).toEqual(['node', ...serviceNodeFlags, 'dist/server/main.js']);
    const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    for (const [name, value] of Object.entries(serviceEnvironment))
      expect(runtimeStage).toMatch(new RegExp(`^\\s*(ENV\\s+)?${name}=${value}\\b`, 'm'));
  });

  it('reach the process `npm start` runs as its environment, where a value the caller set wins', async () => {
    const { execFileSync } = await import('node:child_process');
    const scripts = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')).scripts as Record<
      string,
      string
    >;
    const script = scripts.start!.replace(
      /server\/build\/start\.mjs$/,
      `-e 'process.stdout.write(process.env.MALLOC_ARENA_MAX)'`,
    );
    const run = (env: Record<string, string>) =>
      execFileSync('sh', ['-c', script], {
        env: { PATH: `${path.dirname(process.execPath)}:${process.env.PATH}`, ...env },
      }).toString();
    expect(run({})).toBe(serviceEnvironment.MALLOC_ARENA_MAX);
    expect(run({ MALLOC_ARENA_MAX: '4' })).toBe('4');
  });

  it('are accepted by this Node.js (a flag it does not know stops it at once)', async () => {
    const { execFileSync } = await import('node:child_process');
    expect(execFileSync(process.execPath, [...serviceNodeFlags, '-e', 'process.stdout.write("ok")']).toString()).toBe(
      'ok',
    );
  });
});
