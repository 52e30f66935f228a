import { wrongTypeValues } from './bad-request-values.js';
import type { JsonSchema } from './json-schema.js';
import { preview, type OperationCases } from './operation-cases.js';

/** Body fields of the wrong type, at and past their limits, missing or extra; pollution keys; 1e400; bodies about the size limit. */

export function bodyFieldCases(cases: OperationCases): void {
  const body = cases.operation.body;
  if (!body) return;
  const schema = cases.resolve(body.schema);
  const base = (cases.baseBody ?? {}) as Record<string, unknown>;
  const jsonCase = (label: string, json: unknown) => cases.add(label, { body: { json } }, !cases.bodyValid(json));
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    for (const value of [...wrongTypeValues, ...edgeValues(cases, property)])
      jsonCase(`body ${name}=${preview(JSON.stringify(value))}`, { ...base, [name]: value });
    const nested = cases.resolve(property);
    for (const [inner, innerSchema] of Object.entries(nested.properties ?? {})) {
      const parent = (typeof base[name] === 'object' && base[name] !== null ? base[name] : {}) as Record<
        string,
        unknown
      >;
      for (const value of [...wrongTypeValues.slice(0, 6), ...edgeValues(cases, innerSchema)]) {
        jsonCase(`body ${name}.${inner}=${preview(JSON.stringify(value))}`, {
          ...base,
          [name]: { ...parent, [inner]: value },
        });
      }
    }
  }
  for (const name of schema.required ?? []) {
    const { [name]: _dropped, ...rest } = base;
    jsonCase(`body without ${name}`, rest);
    jsonCase(`body without ${name}, with extra fields`, {
      ...rest,
      unexpected: 'x',
      constructor: { prototype: { polluted: true } },
    });
  }
  jsonCase('body with extra fields', { ...base, unexpected: 'x' });
  const pollution = '"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}';
  const rest = JSON.stringify(withoutFirstRequired(schema, base)).slice(1, -1);
  rawJsonCase(
    cases,
    'body with __proto__ and constructor.prototype',
    `{${[pollution, rest].filter(Boolean).join(',')}}`,
  );
  const zeroes = JSON.stringify(Object.fromEntries(Object.keys(schema.properties ?? {}).map((name) => [name, 0])));
  rawJsonCase(cases, '1e400 (Infinity) in every field', zeroes.replace(/:0/g, ':1e400'));
  hugeCases(cases, body.schema, base);
}

/** A JSON text the JSON helpers cannot write; proved invalid by the schema after JSON.parse, as the server parses it. */
function rawJsonCase(cases: OperationCases, label: string, text: string): void {
  const invalid = !cases.bodyValid(JSON.parse(text));
  cases.add(label, { body: { text }, headers: { 'content-type': 'application/json' } }, invalid);
}

/** Values at and past the limits the property's schema states. */
function edgeValues(cases: OperationCases, property: JsonSchema): unknown[] {
  const schema = cases.resolve(property);
  const values: unknown[] = [];
  const types = [schema.type].flat();
  if (types.includes('string') || schema.maxLength !== undefined)
    values.push('', 'y'.repeat((schema.maxLength ?? 4000) + 1), '名前🐂\u202e\u0000', '../..%2F%');
  if (types.includes('integer') || types.includes('number'))
    values.push(-1, -(2 ** 53), 2 ** 53 + 2, 1e308, 1.5, (schema.maximum ?? 1e9) + 1, (schema.minimum ?? 0) - 1);
  if (schema.enum) values.push('not-a-choice');
  if (types.includes('array'))
    values.push(
      [null],
      Array.from({ length: (schema.maxItems ?? 100) + 1 }, () => 'z'),
    );
  return values;
}

/** One body just under the size limit (a long string where the schema allows less) and one just over. */
function hugeCases(cases: OperationCases, schema: JsonSchema, base: Record<string, unknown>): void {
  const stringProperty = Object.entries(cases.resolve(schema).properties ?? {}).find(([, property]) =>
    [cases.resolve(property).type].flat().includes('string'),
  );
  const name = stringProperty?.[0] ?? 'unexpected';
  const under = { ...base, [name]: 'h'.repeat(cases.options.maxBodyBytes - 4096) };
  cases.add(`body ${name} just under the size limit`, { body: { json: under } }, !cases.bodyValid(under));
  cases.add(
    'body just over the size limit',
    { body: { json: { ...base, [name]: 'h'.repeat(cases.options.maxBodyBytes + 10) } } },
    true,
  );
}

function withoutFirstRequired(schema: JsonSchema, base: Record<string, unknown>): Record<string, unknown> {
  const first = schema.required?.[0];
  if (first === undefined) return base;
  const { [first]: _dropped, ...rest } = base;
  return rest;
}
