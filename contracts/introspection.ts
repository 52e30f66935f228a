import { z } from 'zod';

export const warningsSchema = z
  .array(z.string())
  .describe(
    'Introspection calls the store provider does not allow (e.g. CLIENT LIST on some managed stores); the fields they feed are null.',
  );
