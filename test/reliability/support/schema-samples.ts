import { accepts, type JsonSchema, type SchemaResolver } from './json-schema.js';

/** Small values a JSON Schema accepts, to build the valid base of a request body (bad-input suite). */

const sampleStrings = ['x', '1', 'bull', 'main', 'a1b2'];

/** A small value the schema accepts (for the valid base of a request body); undefined when none is found. */
export function sampleValue(schema: JsonSchema, resolve: SchemaResolver, depth = 0): unknown {
  const s = resolve(schema);
  if (depth > 10) return undefined;
  if ('const' in s) return s.const;
  if (s.enum) return s.enum[0];
  if (s.default !== undefined) return s.default;
  const option = s.anyOf?.[0] ?? s.oneOf?.[0];
  if (option) return sampleValue(option, resolve, depth + 1);
  const type = [s.type].flat()[0];
  let value: unknown;
  if (type === 'string')
    value = sampleStrings
      .map((base) => base.repeat(Math.max(1, s.minLength ?? 1)))
      .find((text) => accepts(s, text, resolve));
  else if (type === 'integer' || type === 'number') value = Math.max(s.minimum ?? 1, 1);
  else if (type === 'boolean') value = true;
  else if (type === 'array')
    value = Array.from({ length: s.minItems ?? 0 }, () => sampleValue(s.items ?? {}, resolve, depth + 1));
  else if (type === 'object' || s.properties) {
    value = Object.fromEntries(
      (s.required ?? []).map((name) => [name, sampleValue(s.properties?.[name] ?? {}, resolve, depth + 1)]),
    );
  } else value = 'x';
  return accepts(s, value, resolve) ? value : undefined;
}
