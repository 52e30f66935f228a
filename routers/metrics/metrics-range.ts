export interface MetricsRange {
  start: number;
  end: number;
  windowMinutes: number | null;
}

/** The index range of the native one-minute points: `windowMinutes` is shorthand for an `end`. */
export function metricsRange({
  start,
  end,
  windowMinutes,
}: {
  start?: number | undefined;
  end?: number | undefined;
  windowMinutes?: number | undefined;
}): MetricsRange {
  const first = start ?? 0;
  if (windowMinutes !== undefined) return { start: first, end: first + windowMinutes - 1, windowMinutes };
  return { start: first, end: end ?? -1, windowMinutes: null };
}
