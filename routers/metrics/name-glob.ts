import { globMatches } from '../../server/bullmq/queue-globs.js';

/**
 * A matcher for a comma-separated list of name globs (`*` any run of
 * characters, `?` one character), e.g. `orders-*,mail`. Empty: everything.
 */
export function nameGlobMatcher(globs: string | null): (name: string) => boolean {
  const patterns = (globs ?? '')
    .split(',')
    .map((glob) => glob.trim())
    .filter(Boolean);
  if (patterns.length === 0) return () => true;
  return (name) => patterns.some((glob) => globMatches(glob, name));
}
