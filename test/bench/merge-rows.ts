import { readFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import type { BenchResults } from './readme-table.js';
import { rows } from './targets.js';

const latestFile = path.join(import.meta.dirname, 'results', 'latest.json');

/**
 * A scenario run alone (`--only bulk`, `cluster`, `streams`, `many-queues --queues N`) puts its rows into
 * the one table: they replace that group's rows of the last file, the other rows stay as they were, and a
 * marker row says which run measured the group (date, load average). Full and core runs keep the groups.
 */
export async function mergeGroupIntoLatest(group: string, loadAtStart: number): Promise<void> {
  const earlier = JSON.parse(await readFile(latestFile, 'utf8')) as BenchResults;
  const own = rows.splice(0);
  const at = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const load = `${loadAtStart.toFixed(1)}–${loadavg()[0]!.toFixed(1)}`;
  rows.push(
    ...earlier.rows.filter((row) => row.group !== group),
    {
      target: '—',
      figure: `rows of \`--only ${group}\``,
      value: `run of ${at} UTC, load average ${load}`,
      goal: '',
      group,
    },
    ...own.map((row) => ({ ...row, group })),
  );
}

/** The rows of groups merged by earlier scenario runs, which a core run keeps whatever their target. */
export async function groupRowsOfLatest(): Promise<BenchResults['rows']> {
  const earlier = JSON.parse(await readFile(latestFile, 'utf8')) as BenchResults;
  return earlier.rows.filter((row) => row.group !== undefined);
}
