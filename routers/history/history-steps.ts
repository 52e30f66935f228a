import { AppError } from '../../contracts/app-error.js';

export interface HistoryRange {
  from: number;
  to: number;
  stepMs: number;
  resolution: 'raw' | '15m';
}

const defaultSpanMs = 6 * 60 * 60_000;
const rawKeptMs = 24 * 60 * 60_000;
const rollupMs = 15 * 60_000;

/**
 * The range asked for, and how to read it: raw samples while the range lies within the last day,
 * 15-minute roll-ups beyond; steps as long as the sample (or roll-up) interval, or longer so that
 * at most `points` steps cover the range.
 */
export function historyRange(
  input: { from?: string | undefined; to?: string | undefined; points: number },
  sampleIntervalMs: number,
  now = Date.now(),
): HistoryRange {
  const to = input.to === undefined ? now : Date.parse(input.to);
  const from = input.from === undefined ? to - defaultSpanMs : Date.parse(input.from);
  if (!(from < to)) throw new AppError('VALIDATION_FAILED', '`from` must be before `to`', { field: 'from' });
  const resolution = from >= now - rawKeptMs ? 'raw' : '15m';
  const baseMs = resolution === 'raw' ? sampleIntervalMs : rollupMs;
  const stepMs = Math.max(baseMs, Math.ceil((to - from) / input.points / 1000) * 1000);
  return { from, to, stepMs, resolution };
}

/** How a figure of several samples in one step becomes one: the latest, the sum, the worst, or all-up. */
export type Merge = 'latest' | 'sum' | 'max' | 'all';

export type Figures = Record<string, number | null>;

/**
 * Rows (ordered by `at`) merged into steps from `range.from`; steps without a row are left out.
 * Each field is merged as `merges` says; `at` becomes the step's start.
 */
export function mergeIntoSteps(
  rows: ReadonlyArray<{ at: number }>,
  range: HistoryRange,
  merges: Record<string, Merge>,
): Array<{ at: number; figures: Figures }> {
  const steps = new Map<number, Figures>();
  const fields = Object.keys(merges);
  for (const sample of rows) {
    const row = sample as unknown as Record<string, unknown>;
    const at = range.from + Math.floor((Number(row.at) - range.from) / range.stepMs) * range.stepMs;
    const step = steps.get(at);
    if (!step) steps.set(at, Object.fromEntries(fields.map((field) => [field, numberOrNull(row[field])])));
    else
      for (const field of fields) step[field] = merged(merges[field]!, step[field] ?? null, numberOrNull(row[field]));
  }
  return [...steps.entries()].sort(([a], [b]) => a - b).map(([at, figures]) => ({ at, figures }));
}

const numberOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

function merged(how: Merge, before: number | null, next: number | null): number | null {
  if (next === null) return how === 'latest' ? null : before;
  if (before === null) return next;
  if (how === 'sum') return before + next;
  if (how === 'max') return Math.max(before, next);
  if (how === 'all') return Math.min(before, next);
  return next;
}
