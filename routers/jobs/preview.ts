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

/**
 * previewValue for a value still in the JSON text BullMQ stored: the text's
 * length decides, so a value that fits is parsed once and one that does not
 * is never parsed at all.
 */
export function previewStoredJson(text: string | undefined, maxBytes: number): Preview {
  if (text === undefined || text === '') return { value: null, truncated: false };
  if (Buffer.byteLength(text) <= maxBytes) return { value: parseOrText(text), truncated: false };
  const head = Buffer.from(text.slice(0, maxBytes)).subarray(0, maxBytes).toString('utf8');
  return { value: head.replace(/\uFFFD$/, ''), truncated: true };
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
