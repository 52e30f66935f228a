import type { TargetRow } from './targets.js';

/** What `test/bench/results/latest.json` holds. */
export interface BenchResults {
  date: string;
  scale: 'quick' | 'full';
  machine: { cpus: number; cpuModel: string; memoryGb: number; node: string };
  rows: TargetRow[];
}

export const latestStart = '<!-- latest:start (written by npm run bench from results/latest.json) -->';
export const latestEnd = '<!-- latest:end -->';

const cell = (value: string) => value.replace(/\|/g, '\\|');

/** The run's machine and its table, as test/bench/README.md shows them. */
export function latestSection({ date, scale, machine, rows }: BenchResults): string {
  const header = `A ${scale} run of ${date.slice(0, 10)}: ${machine.cpus}-core ${machine.cpuModel}, ${machine.memoryGb} GB, Node ${machine.node.replace(/^v/, '')}.`;
  const lines = rows.map((row) => {
    const mark = row.met === undefined ? '' : row.met ? '✓' : '✗';
    return `| ${[row.target, row.figure, String(row.value), row.goal, mark].map(cell).join(' | ')} |`;
  });
  return [header, '', '| target | figure | value | goal | |', '|---|---|---|---|---|', ...lines].join('\n');
}

/** The README with its latest-run section replaced by this run's. */
export function withLatest(readme: string, results: BenchResults): string {
  const from = readme.indexOf(latestStart);
  const to = readme.indexOf(latestEnd);
  if (from === -1 || to < from) throw new Error(`test/bench/README.md lacks the ${latestStart} … ${latestEnd} markers`);
  return `${readme.slice(0, from + latestStart.length)}\n${latestSection(results)}\n${readme.slice(to)}`;
}
