import type { OperationFacts } from './operations.js';

/** The parts of a zod schema this module reads (zod 4's `_zod.def` and the registry's description). */
interface DescribedSchema {
  description?: string;
  shape?: Record<string, DescribedSchema>;
  _zod?: { def: { type?: string; innerType?: DescribedSchema; in?: DescribedSchema } };
}

/**
 * A field's `.describe()` text wherever it sits: on the field, or on a schema
 * it wraps (`.optional()`, `.default()`, a pipe such as `z.stringbool()`).
 */
export function descriptionOf(schema: unknown): string | undefined {
  for (let current = schema as DescribedSchema | undefined; current; ) {
    if (current.description) return current.description;
    const def = current._zod?.def;
    current = def?.innerType ?? (def?.type === 'pipe' ? def.in : undefined);
  }
  return undefined;
}

/** Every field of a procedure's inputs (later inputs win, as the merged parser does). */
function inputFields(inputs: readonly unknown[]): Record<string, DescribedSchema> {
  return Object.assign({}, ...inputs.map((input) => (input as DescribedSchema).shape ?? {}));
}

/**
 * Gives each query and path parameter its field's description. The REST
 * generator rebuilds an optional parameter as `inner.optional()`, which drops
 * a description placed on the wrapper (`.optional().describe(…)`) and leaves
 * any other only inside `schema`, where many tools do not show it.
 */
export function describeParameters({ operation, inputs = [] }: Pick<OperationFacts, 'operation' | 'inputs'>): void {
  const fields = inputFields(inputs);
  for (const parameter of operation.parameters ?? []) {
    parameter.description ??= descriptionOf(fields[parameter.name]) ?? parameter.schema?.description;
  }
}
