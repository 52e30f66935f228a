import { z } from 'zod';

/**
 * Text that goes into a database column or filter. PostgreSQL text cannot
 * hold a NUL character and fails the whole query on one (a 500), so such
 * input is a 400 here instead.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching NUL is the point
export const databaseText = () => z.string().regex(/^[^\u0000]*$/, 'must not contain a NUL character');
