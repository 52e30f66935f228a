import { locationTemplateOf, taskLocation } from '../../trpc/middleware/announce-location.js';
import type { OperationFacts } from './operations.js';

const locationHeader = (template: string) => ({
  Location: {
    description: `Where the resource this answer names lives: \`/api${template}\`.`,
    schema: { type: 'string' },
  },
});

/**
 * What the request conventions (README, "Request conventions") add to a
 * generated operation: the `Location` header of a create's or a task's
 * answer, and the reason a route keeps apart from a convention.
 */
export function documentConventions(facts: Pick<OperationFacts, 'operation' | 'meta'>): void {
  const { operation, meta } = facts;
  const template = locationTemplateOf(meta);
  // The success answer is still `200` here; applySuccessStatuses renames it to the declared status.
  if (meta.location && operation.responses?.['200']) operation.responses['200'].headers = locationHeader(meta.location);
  if (template === taskLocation && operation.responses?.['202']) operation.responses['202'].headers = locationHeader(taskLocation);
  const reasons = Object.entries(meta.differs ?? {}).map(([convention, why]) => `Unlike the ${convention} convention: ${why}`);
  if (reasons.length > 0) operation.description = [operation.description, ...reasons].filter(Boolean).join('\n\n');
}
