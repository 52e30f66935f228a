/** Escapes a literal for a Redis MATCH pattern (`*`, `?`, `[`, `]` and `\` are special there). */
export function escapeGlob(literal: string): string {
  return literal.replace(/[*?[\]\\]/g, (char) => `\\${char}`);
}
