/** A seeded generator (mulberry32): the same seed samples the same cases on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function hashText(text: string): number {
  let hash = 2166136261;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 16777619);
  return hash >>> 0;
}

function product<T extends Record<string, readonly unknown[]>>(dimensions: T): Array<{ [K in keyof T]: T[K][number] }> {
  return Object.entries(dimensions).reduce<Array<Record<string, unknown>>>(
    (rows, [name, values]) => rows.flatMap((row) => values.map((value) => ({ ...row, [name]: value }))),
    [{}],
  ) as Array<{ [K in keyof T]: T[K][number] }>;
}

const pairsOf = (row: Record<string, unknown>): string[] => {
  const entries = Object.entries(row).map(([name, value]) => `${name}=${String(value)}`);
  return entries.flatMap((left, index) => entries.slice(index + 1).map((right) => `${left}&${right}`));
};

/**
 * A deterministic sample of the cross product that holds every pair of
 * dimension values at least once (greedy all-pairs over a seeded shuffle),
 * plus `extra` more rows at random. The full product of a route is up to
 * 1,200 rows; its pairs fit in ~25.
 */
export function pairwiseSample<T extends Record<string, readonly unknown[]>>(
  dimensions: T,
  seed: number,
  extra = 0,
): Array<{ [K in keyof T]: T[K][number] }> {
  const random = seededRandom(seed);
  const rows = product(dimensions)
    .map((row) => ({ row, sort: random() }))
    .sort((a, b) => a.sort - b.sort)
    .map(({ row }) => row);
  const uncovered = new Set(rows.flatMap(pairsOf));
  const chosen: typeof rows = [];
  while (uncovered.size > 0) {
    let best = rows[0]!;
    let bestGain = -1;
    for (const row of rows) {
      const gain = pairsOf(row).filter((pair) => uncovered.has(pair)).length;
      if (gain > bestGain) [best, bestGain] = [row, gain];
    }
    chosen.push(best);
    for (const pair of pairsOf(best)) uncovered.delete(pair);
  }
  const rest = rows.filter((row) => !chosen.includes(row));
  return [...chosen, ...rest.slice(0, extra)];
}
