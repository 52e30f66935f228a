import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import path from 'node:path';
import { repoRoot } from './processes.js';
import { withLatest } from './readme-table.js';
import { renderTable, rows } from './targets.js';

/**
 * Prints the one table and keeps it with the machine it ran on:
 * `test/bench/results/latest.json` (committed, with its table in test/bench/README.md) and a
 * dated copy beside it (git-ignored), so runs can be compared later.
 */
export async function writeResults(scale: 'quick' | 'full'): Promise<void> {
  const machine = {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  };
  const results = { date: new Date().toISOString(), scale, machine, rows };
  const directory = path.join(repoRoot, 'test', 'bench', 'results');
  await mkdir(directory, { recursive: true });
  const body = `${JSON.stringify(results, null, 2)}\n`;
  await writeFile(path.join(directory, `${results.date.replace(/[:.]/g, '-')}.json`), body);
  await writeFile(path.join(directory, 'latest.json'), body);
  const readme = path.join(repoRoot, 'test', 'bench', 'README.md');
  await writeFile(readme, withLatest(await readFile(readme, 'utf8'), results));
  console.log(
    `\n${renderTable()}\n\nmachine: ${JSON.stringify(machine)}\nresults: test/bench/results/latest.json, test/bench/README.md`,
  );
}
