const bars = '▁▂▃▄▅▆▇█';

/** One character per value, scaled between the series' min and max (a flat series sits at the bottom). */
export function sparkline(values: number[]): string {
  if (values.length === 0) return '';
  const min = Math.min(...values);
  const span = Math.max(...values) - min;
  return values.map((value) => bars[span === 0 ? 0 : Math.round(((value - min) / span) * (bars.length - 1))]).join('');
}

/**
 * One character per step of a time axis, scaled from 0 to `max` (so equal
 * values look equal across rows of one scale); a step without a sample
 * (null) is a blank: gaps in the data show as gaps.
 */
export function timeline(values: Array<number | null>, max: number): string {
  return values
    .map((value) =>
      value === null ? ' ' : bars[max <= 0 ? 0 : Math.round((Math.max(0, value) / max) * (bars.length - 1))],
    )
    .join('');
}

/** Keeps the newest `width` values: a sparkline as wide as the terminal allows. */
export function newest(values: number[], width: number): number[] {
  return values.slice(Math.max(0, values.length - width));
}

/** `30m`, `6h`, `2d` → milliseconds; undefined when the text is not such a span. */
export function parseSpan(text: string): number | undefined {
  const match = /^(\d+)([mhd])$/.exec(text.trim());
  if (!match) return undefined;
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}

/** Seconds as the largest whole unit: `42s`, `7m`, `3h`, `2d`. */
export function shortDuration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}
