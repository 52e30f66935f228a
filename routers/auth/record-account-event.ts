import type { AuditOutcome } from '../../contracts/audit.js';
import type { Logger } from '../../server/logger.js';
import { Membership } from '../../server/persistence/entities/membership.js';
import type { Persistence } from '../../server/persistence/persistence.js';
import { recordAuditEvent } from '../../server/audit/record-audit-event.js';

/**
 * An event about a user's own account (sign-up, password change or reset),
 * which belongs to no single organization: recorded in every organization
 * the user is a member of, so each one's admins see it in their trail.
 */
export async function recordAccountEvent(
  deps: { persistence: Persistence; logger: Logger },
  input: {
    userId: string;
    action: string;
    outcome: AuditOutcome;
    errorCode?: string | null;
    parameters?: Record<string, unknown>;
  },
): Promise<void> {
  const memberships = await deps.persistence.fork().find(Membership, { userId: input.userId });
  for (const membership of memberships) {
    await recordAuditEvent(deps, {
      actor: { kind: 'user', userId: input.userId, tokenId: null, organizationId: membership.organizationId },
      action: input.action,
      procedure: input.action,
      connectionId: null,
      queueName: null,
      parameters: input.parameters ?? {},
      outcome: input.outcome,
      errorCode: input.errorCode ?? null,
      counts: null,
    });
  }
}
