export interface Preview {
  value: unknown;
  truncated: boolean;
}

/**
 * `value` itself when its JSON text fits in `maxBytes`, otherwise the first
 * `maxBytes` bytes of that text (never a split UTF-8 character), flagged.
 */
export function previewValue(value: unknown, maxBytes: number): Preview {
  if (value === undefined || value === null) return { value: value ?? null, truncated: false };
  const text = JSON.stringify(value);
  if (Buffer.byteLength(text) <= maxBytes) return { value, truncated: false };
  // Every character takes at least one byte, so the cut lies within the first maxBytes characters.
  const head = Buffer.from(text.slice(0, maxBytes)).subarray(0, maxBytes).toString('utf8');
  return { value: head.replace(/\uFFFD$/, ''), truncated: true };
}
