/**
 * Keeps entries, in order, while their summed byte size stays within
 * `maxBytes`; says whether any had to be left out. The first entry is always
 * kept so that a page is never empty while more remains.
 */
export function capEntries<T>(
  entries: T[],
  sizeOf: (entry: T) => number,
  maxBytes: number,
): { kept: T[]; capped: boolean } {
  let bytes = 0;
  for (let index = 0; index < entries.length; index++) {
    bytes += sizeOf(entries[index]!);
    if (bytes > maxBytes && index > 0) return { kept: entries.slice(0, index), capped: true };
  }
  return { kept: entries, capped: false };
}

export const byteLength = (...texts: string[]) => texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
