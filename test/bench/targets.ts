/** One figure of the benchmark next to its target (issue 16), as the table and latest.json show it. */
export interface TargetRow {
  target: string;
  figure: string;
  value: number | string;
  goal: string;
  /** undefined: reported, not judged. */
  met?: boolean;
  /** Rows a scenario run alone added to the file (`--only bulk`, …): the run that measured them, kept by later runs. */
  group?: string;
}

export const rows: TargetRow[] = [];

export function report(target: string, figure: string, value: number | string, goal = '', met?: boolean): void {
  const row: TargetRow = { target, figure, value, goal, ...(met === undefined ? {} : { met }) };
  rows.push(row);
  console.log(
    `  ${target} | ${figure} | ${value}${goal ? ` (target ${goal})` : ''}${met === undefined ? '' : met ? ' ✓' : ' ✗'}`,
  );
}

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export function renderTable(): string {
  const cells = rows.map((row) => [
    row.target,
    row.figure,
    String(row.value),
    row.goal,
    row.met === undefined ? '' : row.met ? '✓' : '✗',
  ]);
  const header = ['target', 'figure', 'value', 'goal', ''];
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((line) => line[column]!.length)));
  const line = (values: string[]) => `| ${values.map((value, column) => value.padEnd(widths[column]!)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...cells.map(line)].join('\n');
}
