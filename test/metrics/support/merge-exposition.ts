/**
 * The exposition GET /api/prometheus gave before it was streamed, kept as
 * the reference the streamed one is compared with.
 *
 * Joins Prometheus text expositions into one valid document: each metric
 * family's HELP and TYPE once, then all its samples together (the format
 * forbids repeating TYPE or interleaving a family's samples). BullMQ exports
 * one queue at a time, each with its own HELP/TYPE lines.
 */
export function mergeExpositions(texts: string[]): string {
  const families = new Map<string, { header: string[]; samples: string[] }>();
  const family = (name: string) => {
    let entry = families.get(name);
    if (!entry) {
      entry = { header: [], samples: [] };
      families.set(name, entry);
    }
    return entry;
  };
  for (const text of texts) {
    for (const line of text.split('\n')) {
      const header = /^# (HELP|TYPE) (\S+)/.exec(line);
      if (header) {
        const entry = family(header[2]!);
        if (!entry.header.some((existing) => existing.startsWith(`# ${header[1]} `))) entry.header.push(line);
      } else if (line.trim() !== '' && !line.startsWith('#')) {
        family(/^[^{\s]+/.exec(line)![0]).samples.push(line);
      }
    }
  }
  return `${[...families.values()].map(({ header, samples }) => [...header, ...samples].join('\n')).join('\n')}\n`;
}
