import { describe, expect, it } from 'vitest';
import { commands } from '../../client/cli/command-list.js';
import { runBullpen } from '../helpers/cli.js';

/** Runs `work` over `items`, `width` at a time (each spawns a CLI process). */
async function inBatches<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += width)
    results.push(...(await Promise.all(items.slice(start, start + width).map(work))));
  return results;
}

describe('bullpen <command> --help (issue 35)', () => {
  it('lists every command in bullpen --help', async () => {
    const run = await runBullpen(['--help']);
    expect(run.code).toBe(0);
    for (const command of commands) expect(run.stdout).toMatch(new RegExp(`^  ${command.name}\\s+\\S`, 'm'));
  });

  it('gives each flag of every command a line of text, and examples of the command', async () => {
    const helps = await inBatches(commands, 4, async (command) => ({
      command,
      run: await runBullpen([command.name, '--help']),
    }));
    for (const { command, run } of helps) {
      expect(run.code, command.name).toBe(0);
      const [, flags = ''] = /\nflags:\n([\s\S]*?)\n\n/.exec(run.stdout) ?? [];
      for (const flag of Object.keys(command.options)) {
        expect(flags, `${command.name} --${flag}`).toMatch(
          new RegExp(`^  (-\\w, )?--${flag}(\\s\\S+)?\\s{2,}\\S.{10,}$`, 'm'),
        );
      }
      const [, examples = ''] = /\nexamples:\n([\s\S]*)$/.exec(run.stdout) ?? [];
      expect(
        examples.split('\n').filter((line) => line.startsWith(`  bullpen ${command.name}`)).length,
        `${command.name} examples`,
      ).toBeGreaterThan(0);
      expect(run.stdout, command.name).toContain('flags for every command:\n  --url URL');
    }
  }, 120_000);
});
