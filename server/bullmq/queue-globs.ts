/** A glob (`*` any run, `?` one character, everything else literal) as an anchored RegExp. */
export function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 's');
}

/** Whether a queue name is included by one of `include` and excluded by none of `exclude`. */
export function queueSelected(name: string, selection: { include: string[]; exclude: string[] }): boolean {
  const matches = (globs: string[]) => globs.some((glob) => globToRegExp(glob).test(name));
  return matches(selection.include) && !matches(selection.exclude);
}
