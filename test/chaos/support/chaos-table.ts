import { appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One line of `npm run chaos`'s table: what the scenario promises and what this run saw. */
export interface ChaosRow {
  scenario: string;
  expected: string;
  observed: string;
  held: boolean;
}

/** Where rows gather across the run's test files (forks); the global setup empties it, the teardown prints it. */
export const chaosTableFile = process.env.CHAOS_TABLE_FILE ?? join(tmpdir(), 'bullpen-chaos-table.jsonl');

/** Records a scenario's outcome for the table; a scenario still asserts what it expects on its own. */
export function recordChaosRow(row: ChaosRow): void {
  appendFileSync(chaosTableFile, `${JSON.stringify(row)}\n`);
}
