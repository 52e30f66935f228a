import { z } from 'zod';

/**
 * A JSON `true`/`false` in a request body. The REST adapter turns every
 * top-level `z.boolean()` into a coercing one (so the string "false" would
 * read as true); a union of literals is left alone, so a string is a 400.
 */
export const strictBoolean = () => z.union([z.literal(true), z.literal(false)]);
