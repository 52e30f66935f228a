import { z } from 'zod';

/**
 * What every DELETE answers (README, "Request conventions"): `success` and
 * the `id` of what it deleted (the last identifier of its path: a token's id,
 * a queue's name, a key), plus what that route adds.
 */
export const deletedSchema = z.object({
  success: z.literal(true),
  id: z.string().describe('What was deleted, as the path named it.'),
});

/** A field kept for clients written before the one delete body (`deleted`, `schedulerId`, `key`…). */
export const deprecatedField = <T extends z.ZodType>(schema: T, instead: string) =>
  schema.meta({ deprecated: true, description: `Deprecated: read \`${instead}\`.` });

/** A delete's answer: what the route's own code answered, with `success` and the deleted thing's `id`. */
export const deletedAnswer = <T extends object>(id: string, result: T) => ({ ...result, success: true as const, id });
