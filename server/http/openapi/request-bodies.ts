import type { OperationFacts } from './operations.js';

type JsonSchema = { properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };

/**
 * `meta.bodyAlternatives` as `oneOf`: fields named in no form are common to
 * all; `name?` is optional within its form. (The zod input stays one object
 * with a check, so a 400 names the offending field.)
 */
function alternativesOf(schema: JsonSchema, alternatives: ReadonlyArray<readonly string[]>): JsonSchema {
  const properties = schema.properties ?? {};
  const inForms = new Set(alternatives.flat().map((field) => field.replace(/\?$/, '')));
  const common = Object.keys(properties).filter((field) => !inForms.has(field));
  const commonRequired = (schema.required ?? []).filter((field) => common.includes(field));
  const forms = alternatives.map((form) => {
    const fields = form.map((field) => field.replace(/\?$/, ''));
    return {
      title: form.filter((field) => !field.endsWith('?')).join(' + '),
      type: 'object',
      properties: Object.fromEntries([...common, ...fields].map((field) => [field, properties[field]])),
      required: [...commonRequired, ...form.filter((field) => !field.endsWith('?'))],
      // Bodies are strict (400 UNKNOWN_FIELD): a form takes its fields and the common ones, nothing else.
      additionalProperties: false,
    };
  });
  const {
    properties: _properties,
    required: _required,
    type: _type,
    additionalProperties: _additional,
    ...rest
  } = schema;
  return { ...rest, oneOf: forms };
}

/**
 * A body is required only when a field is; it takes no field it does not
 * list (`additionalProperties: false`); it gets a working example
 * (`meta.bodyExample`, or `{}` when nothing is required) that Try-it-out
 * pre-fills; alternative forms become `oneOf`.
 */
export function describeRequestBody({ operation, meta }: OperationFacts): void {
  const media = operation.requestBody?.content?.['application/json'];
  if (!media) return;
  const schema = media.schema as JsonSchema;
  const required = (schema.required?.length ?? 0) > 0 || meta.bodyAlternatives !== undefined;
  // Every input is a strict object (test/system/strict-inputs.test.ts holds it): say so even where
  // the generator left it out (an input with a refinement loses it on the way).
  if (schema.type === 'object') schema.additionalProperties = false;
  if (meta.bodyAlternatives) media.schema = alternativesOf(schema, meta.bodyAlternatives);
  operation.requestBody.required = required;
  const example = meta.bodyExample ?? (required ? undefined : {});
  if (example) media.example = example;
}
