import { isPlainObject, type JsonSchema, type SchemaResolver } from './json-schema.js';

/**
 * What the REST adapter (trpc-to-openapi) makes of a JSON body before zod
 * sees it: it turns every boolean field of the input object, and of objects
 * and arrays nested in it, into a coercing one. Unions are left alone, and
 * so are numbers: body contracts pin them strict (contracts/strict-number.ts),
 * so `null`, `""`, `"7"` and `true` are invalid numbers here.
 */
export function coerceLikeAdapter(schema: JsonSchema, value: unknown, resolve: SchemaResolver, depth = 0): unknown {
  const s = resolve(schema);
  if (depth > 10 || s.anyOf || s.oneOf || s.enum || 'const' in s) return value;
  const types = [s.type].flat();
  if (depth > 0 && types.includes('boolean')) return Boolean(value);
  if (Array.isArray(value) && s.items)
    return value.map((item) => coerceLikeAdapter(s.items!, item, resolve, depth + 1));
  if (isPlainObject(value) && s.properties) {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [
        name,
        Object.hasOwn(s.properties!, name) ? coerceLikeAdapter(s.properties![name]!, item, resolve, depth + 1) : item,
      ]),
    );
  }
  return value;
}
