import { z } from 'zod';

/**
 * A list of enum values that also takes one value alone (`"failed"` for
 * `["failed"]`), as every such list of the API does (docs/api.md, "Request
 * conventions"). Parsed, it is always the list. A value outside the enum is
 * 400 naming the allowed ones, whichever form was sent.
 */
export function oneOrList<Item extends z.ZodEnum>(list: z.ZodArray<Item>) {
  const item = list.element;
  const allowed = item.options.join(', ');
  return z.union([list, item.transform((value): Array<z.output<Item>> => [value])], {
    error: () => `expected one of ${allowed}, or a list of them`,
  });
}
