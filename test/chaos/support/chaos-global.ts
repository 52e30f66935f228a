import { existsSync, readFileSync, rmSync } from 'node:fs';
import { chaosTableFile, type ChaosRow } from './chaos-table.js';

/** Vitest global setup of `npm run chaos`: starts an empty table and prints it once every scenario ran. */
export default function setup(): () => void {
  rmSync(chaosTableFile, { force: true });
  return () => process.stdout.write(`\n${formatChaosTable(readRows())}\n`);
}

function readRows(): ChaosRow[] {
  if (!existsSync(chaosTableFile)) return [];
  const lines = readFileSync(chaosTableFile, 'utf8').split('\n').filter(Boolean);
  return lines.map((line) => JSON.parse(line) as ChaosRow);
}

/** A plain-text table: scenario | expected | observed | held. */
export function formatChaosTable(rows: ChaosRow[]): string {
  const header = ['scenario', 'expected', 'observed', 'held'];
  const cells = rows.map((row) => [row.scenario, row.expected, row.observed, row.held ? 'yes' : 'NO']);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => line[column]?.length ?? 0)),
  );
  const format = (line: string[]) => line.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ');
  const rule = widths.map((width) => '-'.repeat(width)).join('-|-');
  return [format(header), rule, ...cells.map(format)].join('\n');
}
