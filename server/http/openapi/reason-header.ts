import { reasonPolicies } from './error-responses.js';
import type { OperationFacts } from './operations.js';

/**
 * The `Bullpen-Reason` header on every signed-in change: kept in its audit
 * event, and required where SERVICE_REQUIRE_REASON asks (server/auth/require-reason.ts).
 */
export function addReasonHeader(
  facts: Pick<OperationFacts, 'operation' | 'path' | 'meta' | 'mutation' | 'public'>,
): void {
  if (!facts.mutation || facts.public) return;
  const policies = reasonPolicies(facts);
  facts.operation.parameters ??= [];
  facts.operation.parameters.push({
    name: 'Bullpen-Reason',
    in: 'header',
    required: false,
    schema: { type: 'string' },
    description: `Why you make this change, in words (UTF-8): kept in its audit event (\`reason\`, at most 1,000 characters).${policies ? ` Required when SERVICE_REQUIRE_REASON is ${policies}.` : ''}`,
  });
}
