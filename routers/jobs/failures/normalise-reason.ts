/**
 * What varies between occurrences of one failure, and its placeholder, in
 * the order they apply: quoted values first (they may hold anything), then
 * the shapes of ids, then bare numbers.
 */
const variableParts: Array<[RegExp, string]> = [
  [/"(?:[^"\\\n]|\\.)*"|(?<!\w)'[^'\n]*'(?!\w)|`[^`\n]*`/g, '"…"'],
  [/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, '<email>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
  // Hashes and object ids: 8 or more hex digits, digits and letters mixed.
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, '<hex>'],
  // Ids such as order-8812, usr_9f3k, job42: letters and digits in one word of 4 or more.
  [/\b(?=[\w-]*[a-z])(?=[\w-]*\d)[a-z\d][\w-]{3,}\b/gi, '<id>'],
  // 42, 2.5, and dotted runs such as 5.1.1 or 10.0.0.7 as one.
  [/\d+(?:\.\d+)*/g, '<n>'],
];

/** Longest normalised reason kept: two reasons alike for this long are one failure. */
export const maxReasonLength = 500;

/** A failure reason with what varies between occurrences replaced, so that occurrences of one failure read alike. */
export function normaliseReason(reason: string): string {
  let text = reason.replace(/\s+/g, ' ').trim();
  for (const [pattern, placeholder] of variableParts) text = text.replace(pattern, placeholder);
  return text.slice(0, maxReasonLength);
}

/** The class a stack trace's first line names (`SmtpTimeoutError: …`, `TypeError`), or null. */
export function errorClassOf(firstLine: string | null): string | null {
  return firstLine ? (/^\s*([A-Za-z_$][\w$.]*)\s*(?::|$)/.exec(firstLine)?.[1] ?? null) : null;
}
