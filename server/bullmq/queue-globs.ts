/**
 * Whether `name` matches `glob` (`*` any run, `?` one character, everything
 * else literal). A linear scan that returns to the last `*` on a mismatch:
 * at worst glob length × name length steps. A regular expression built from
 * the glob (`.*a.*a.*a…b`) backtracks exponentially: a 17-character glob
 * against a 40-character name took 9 s and held the event loop.
 */
export function globMatches(glob: string, name: string): boolean {
  let g = 0;
  let n = 0;
  let lastStar = -1;
  let resumeAt = 0;
  while (n < name.length) {
    if (glob[g] === '*') {
      lastStar = g++;
      resumeAt = n;
    } else if (g < glob.length && (glob[g] === '?' || glob[g] === name[n])) {
      g++;
      n++;
    } else if (lastStar !== -1) {
      // The last `*` takes one more character; try the rest of the glob from there.
      g = lastStar + 1;
      n = ++resumeAt;
    } else {
      return false;
    }
  }
  while (glob[g] === '*') g++;
  return g === glob.length;
}

/** Whether a queue name is included by one of `include` and excluded by none of `exclude`. */
export function queueSelected(name: string, selection: { include: string[]; exclude: string[] }): boolean {
  const matches = (globs: string[]) => globs.some((glob) => globMatches(glob, name));
  return matches(selection.include) && !matches(selection.exclude);
}
