import type { z } from 'zod';

/**
 * A JSON number in a request body, never text or `true` read as one.
 *
 * The REST adapter marks every number schema of a procedure's input object
 * (top level and nested objects) `coerce`, so `true` would read as 1, `null`
 * and `""` as 0 and `"5"` as 5. This pins the finished schema's `coerce` to
 * false: the adapter's write is ignored, the schema (and its OpenAPI form)
 * stays a plain number. Wrap the finished schema —
 * `strictNumber(z.number().int().min(0))` — because `.int()`, `.min()` and
 * the like copy the schema and would drop the pin; `.optional()` and
 * `.default()` wrap it and keep it. Query strings are text and keep
 * coercing: use this in body contracts only.
 */
export function strictNumber<S extends z.ZodNumber>(schema: S): S {
  Object.defineProperty(schema._zod.def, 'coerce', { get: () => false, set: () => undefined, enumerable: true });
  return schema;
}
