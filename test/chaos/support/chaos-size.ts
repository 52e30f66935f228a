/**
 * Chaos scenarios run twice over: scaled inside `npm test` (each ≤ 30 s on two cores) and at the size the
 * fault run used behind `npm run chaos` (CHAOS_FULL=1). One file per scenario holds both.
 */
export const chaosFull = process.env.CHAOS_FULL === '1';

/** The scenario's size: `scaled` in `npm test`, `full` in `npm run chaos`. */
export function chaosSize(scaled: number, full: number): number {
  return chaosFull ? full : scaled;
}

/** A time budget for a scenario's test: generous at full size, within the suite's 30 s otherwise. */
export function chaosTimeout(fullMs = 600_000): number {
  return chaosFull ? fullMs : 30_000;
}
