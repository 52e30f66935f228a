import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/** The argument a changing tool takes besides its procedure's input: kept in the audit event, as `Bullpen-Reason` is. */
export const reasonArgument = 'reason';

const reasonSchema: JsonSchema = {
  type: 'string',
  description:
    'Why you make this change, in words: kept in its audit event (as the `Bullpen-Reason` header). Required for the changes SERVICE_REQUIRE_REASON names (REASON_REQUIRED otherwise).',
};

/**
 * A zod schema as a standalone JSON Schema (no `$schema`, no registry `id`),
 * or null when it is not an object schema. A schema registered with an id
 * (`.meta({ id: 'QueuePage' })`) comes out as a `$ref` into `$defs`: MCP
 * wants the object itself at the root, so it is put there, `$defs` kept for
 * the references inside.
 */
function objectSchemaOf(schema: unknown, io: 'input' | 'output'): JsonSchema | null {
  if (!(schema instanceof z.ZodType)) return null;
  const { $schema: _dialect, id: _id, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  const defs = json.$defs as Record<string, JsonSchema> | undefined;
  const referenced = typeof json.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(json.$ref)?.[1] : undefined;
  const root = referenced && defs?.[referenced] ? { ...defs[referenced], $defs: defs } : json;
  return root.type === 'object' ? root : null;
}

/**
 * A tool's `inputSchema`: its procedure's zod input as JSON Schema (MCP asks
 * for an object; a procedure without input takes none), plus `reason` on a
 * tool that changes anything. A procedure field named `reason` would collide
 * with it: refused at generation, so a test catches it rather than an agent.
 */
export function toolInputSchema(procedurePath: string, inputParser: unknown, mutation: boolean): JsonSchema {
  const schema = objectSchemaOf(inputParser, 'input') ?? {
    type: 'object',
    properties: {},
    additionalProperties: false,
  };
  if (!mutation) return schema;
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  if (reasonArgument in properties)
    throw new Error(
      `procedure ${procedurePath} takes a "${reasonArgument}" field, which MCP tools use for the audit reason`,
    );
  return { ...schema, properties: { ...properties, [reasonArgument]: reasonSchema } };
}

/** A tool's `outputSchema`: its procedure's zod output, when that is an object (MCP's structured content is one). */
export function toolOutputSchema(outputParser: unknown): JsonSchema | undefined {
  return objectSchemaOf(outputParser, 'output') ?? undefined;
}
