/** A time as the axis labels it: the time of day within a day's span, else the date too (UTC). */
function label(ms: number, spanMs: number): string {
  const iso = new Date(ms).toISOString();
  return spanMs <= 86_400_000 ? `${iso.slice(11, 16)}Z` : `${iso.slice(5, 10)} ${iso.slice(11, 16)}Z`;
}

/**
 * Two lines under `width` columns covering [from, to]: a rule with a tick at
 * each end and the middle, and the start, middle and end times under their
 * ticks (the middle one when there is room), so the end time sits at the
 * right edge, where the newest sample is drawn.
 */
export function timeAxis(from: number, to: number, width: number): string[] {
  if (width < 2) return [];
  const middle = Math.floor((width - 1) / 2);
  const rule = Array.from({ length: width }, (_, at) =>
    at === 0 ? '└' : at === width - 1 ? '┘' : at === middle ? '┴' : '─',
  ).join('');
  const start = label(from, to - from);
  const end = label(to, to - from);
  const mid = label(from + ((to - from) * middle) / (width - 1), to - from);
  const labels = Array.from<string>({ length: Math.max(width, start.length + end.length + 1) }).fill(' ');
  const put = (text: string, at: number) =>
    text.split('').forEach((char, offset) => {
      labels[at + offset] = char;
    });
  put(start, 0);
  const endAt = Math.max(start.length + 1, width - end.length);
  const midAt = middle - Math.floor(mid.length / 2);
  if (midAt > start.length + 1 && midAt + mid.length < endAt - 1) put(mid, midAt);
  put(end, endAt);
  return [rule, labels.join('').trimEnd()];
}
