/**
 * The subset of JSON Schema the OpenAPI document uses, and a checker for it.
 * The bad-input suite sends destructive routes only what this checker proves
 * invalid, so it errs on the side of "valid" for anything it does not know.
 */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  pattern?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
}

export type SchemaResolver = (schema: JsonSchema) => JsonSchema;

/** Resolves local `#/components/schemas/X` references of one document. */
export function schemaResolver(document: { components?: { schemas?: Record<string, JsonSchema> } }): SchemaResolver {
  return (schema) => {
    let current = schema;
    for (let hops = 0; current.$ref && hops < 10; hops++) {
      const name = current.$ref.replace('#/components/schemas/', '');
      current = document.components?.schemas?.[name] ?? {};
    }
    return current;
  };
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    default:
      return true;
  }
}

/** Whether `value` satisfies `schema`; unknown keywords count as satisfied. */
export function accepts(schema: JsonSchema, value: unknown, resolve: SchemaResolver, depth = 0): boolean {
  if (depth > 30) return true;
  const s = resolve(schema);
  const check = (inner: JsonSchema, innerValue: unknown) => accepts(inner, innerValue, resolve, depth + 1);
  if (s.anyOf && !s.anyOf.some((option) => check(option, value))) return false;
  if (s.oneOf && !s.oneOf.some((option) => check(option, value))) return false;
  if (s.allOf && !s.allOf.every((part) => check(part, value))) return false;
  if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(value)) return false;
  if (s.enum && !s.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))) return false;
  if (s.type) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.some((type) => hasType(type, value))) return false;
  }
  if (typeof value === 'string') {
    if (s.minLength !== undefined && value.length < s.minLength) return false;
    if (s.maxLength !== undefined && value.length > s.maxLength) return false;
    if (s.pattern !== undefined && !new RegExp(s.pattern).test(value)) return false;
  }
  if (typeof value === 'number') {
    if (s.minimum !== undefined && value < s.minimum) return false;
    if (s.maximum !== undefined && value > s.maximum) return false;
    if (s.exclusiveMinimum !== undefined && value <= s.exclusiveMinimum) return false;
    if (s.exclusiveMaximum !== undefined && value >= s.exclusiveMaximum) return false;
  }
  if (Array.isArray(value)) {
    if (s.minItems !== undefined && value.length < s.minItems) return false;
    if (s.maxItems !== undefined && value.length > s.maxItems) return false;
    if (s.items && !value.every((item) => check(s.items!, item))) return false;
  }
  if (isPlainObject(value)) {
    if (s.required?.some((name) => !(name in value))) return false;
    for (const [name, item] of Object.entries(value)) {
      const property = s.properties && Object.hasOwn(s.properties, name) ? s.properties[name] : undefined;
      if (property) {
        if (!check(property, item)) return false;
      } else if (s.additionalProperties === false) {
        return false;
      } else if (isPlainObject(s.additionalProperties) && !check(s.additionalProperties, item)) {
        return false;
      }
    }
  }
  return true;
}

/** Whether a query-string value satisfies its parameter schema once coerced as the REST adapter coerces it. */
export function acceptsQueryValue(schema: JsonSchema, value: string, resolve: SchemaResolver): boolean {
  if (accepts(schema, value, resolve)) return true;
  const types = [resolve(schema).type].flat();
  if (types.includes('integer') || types.includes('number')) return accepts(schema, Number(value), resolve);
  if (types.includes('boolean')) return ['true', 'false'].includes(value) && accepts(schema, value === 'true', resolve);
  return false;
}
