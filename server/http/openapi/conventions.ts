import { locationTemplateOf, taskLocation } from '../../trpc/middleware/announce-location.js';
import { honoursIdempotencyKey } from '../../trpc/middleware/honour-idempotency-key.js';
import type { OperationFacts } from './operations.js';

const locationHeader = (template: string) => ({
  Location: {
    description: `Where the resource this answer names lives: \`/api${template}\`.`,
    schema: { type: 'string' },
  },
});

/**
 * What the request conventions (docs/api.md, "Request conventions") add to a
 * generated operation: the `Location` header of a create's or a task's
 * answer, and the reason a route keeps apart from a convention.
 */
export function documentConventions(facts: Pick<OperationFacts, 'operation' | 'meta'>): void {
  const { operation, meta } = facts;
  const template = locationTemplateOf(meta);
  // The success answer is still `200` here; applySuccessStatuses renames it to the declared status.
  if (meta.location && operation.responses?.['200']) operation.responses['200'].headers = locationHeader(meta.location);
  if (template === taskLocation && operation.responses?.['202'])
    operation.responses['202'].headers = locationHeader(taskLocation);
  if (honoursIdempotencyKey(meta)) {
    operation.parameters ??= [];
    operation.parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
      description:
        'Makes a retry safe: the first request with this key (per organization, route and caller) runs, and for 24 hours the same key with the same input answers that first answer again (status and body, with `Idempotency-Replayed: true`) without acting twice. The same key with another input is 422 `IDEMPOTENCY_KEY_REUSED`; while the first still runs, 409 `IDEMPOTENCY_KEY_IN_USE`. A first request that failed keeps nothing.',
    });
  }
  // A deprecated query field (the older `page`, `pageSize`): the generator keeps its description, which says so first.
  for (const parameter of operation.parameters ?? [])
    if (parameter.schema?.deprecated || /^Deprecated:/.test(parameter.description ?? '')) parameter.deprecated = true;
  const reasons = Object.entries(meta.differs ?? {}).map(
    ([convention, why]) => `Unlike the ${convention} convention: ${why}`,
  );
  if (reasons.length > 0) operation.description = [operation.description, ...reasons].filter(Boolean).join('\n\n');
}
