import { z } from 'zod';

const texts = ['true', 'false', '1', '0'] as const;

/**
 * A yes/no query parameter. Documented as `type: boolean` (generated clients
 * send `true`/`false`); a query string's `true`/`false`/`1`/`0`, or a JSON
 * boolean from the typed client, reads as one; anything else is a 400. A
 * pipe, so the REST adapter does not coerce it (it would read "false" as true).
 */
export const queryBoolean = () =>
  z
    .union([z.boolean(), z.enum(texts)], { error: 'expected true, false, 1 or 0' })
    .transform((value) => value === true || value === 'true' || value === '1')
    .meta({
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        for (const key of Object.keys(jsonSchema))
          if (key !== 'description' && key !== 'default') delete jsonSchema[key];
        jsonSchema.type = 'boolean';
      },
    });
