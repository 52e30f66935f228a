const maxLength = 2000;
/** `%252F` is `%2F` is `/`: decoded until stable; still changing after this many rounds is refused. */
const maxDecodings = 3;

/** One leading `/` followed by nothing or a character that is neither `/` nor `\`. */
const isOriginPath = (path: string) => /^\/(?![/\\])/.test(path);

/** The text percent-decoded until it stops changing; null when malformed or still encoded after `maxDecodings`. */
function fullyDecoded(text: string): string | null {
  let current = text;
  for (let round = 0; round < maxDecodings; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return null;
}

/** `text` resolved against the origin (dot segments, backslashes): its path, query and hash if it stays an origin path there. */
function resolvedOnOrigin(text: string, appOrigin: string): string | null {
  try {
    const resolved = new URL(text, appOrigin);
    if (resolved.origin !== appOrigin || !isOriginPath(resolved.pathname)) return null;
    return `${resolved.pathname}${resolved.search}${resolved.hash}`;
  } catch {
    return null;
  }
}

/**
 * Where to send the browser after signing in: a path on this origin, never
 * elsewhere. The value is judged in its normalised forms (percent-decoded,
 * backslashes read as `/`, dot segments resolved, as browsers read them) and
 * each must be one leading `/` followed by a character that is neither `/`
 * nor `\`; anything else (`//evil.example`, `/.//evil.example`,
 * `/%2e//evil.example`, `/\evil.example`, `https://…`, control characters)
 * becomes `/`.
 */
export function safeRedirectPath(value: unknown, appOrigin: string): string {
  if (typeof value !== 'string' || value.length > maxLength) return '/';
  const decoded = fullyDecoded(value);
  // Browsers drop tabs and newlines inside URLs, which can join `/` and `/` into `//`.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (decoded === null || /[\u0000-\u001f\u007f]/.test(decoded)) return '/';
  const slashed = decoded.replaceAll('\\', '/');
  if (!isOriginPath(slashed) || resolvedOnOrigin(slashed, appOrigin) === null) return '/';
  return resolvedOnOrigin(value, appOrigin) ?? '/';
}
