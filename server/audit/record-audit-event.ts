import { randomUUID } from 'node:crypto';
import type { Actor } from '../auth/actor.js';
import type { Logger } from '../logger.js';
import { AuditEvent } from '../persistence/entities/audit-event.js';
import type { Persistence } from '../persistence/persistence.js';
import type { AuditOutcome } from '../../contracts/audit.js';

export interface AuditEventInput {
  actor: Actor;
  action: string;
  procedure: string;
  connectionId: string | null;
  queueName: string | null;
  /** Already redacted. */
  parameters: unknown;
  outcome: AuditOutcome;
  errorCode: string | null;
  counts: Record<string, unknown> | null;
}

/**
 * Writes one audit event. Never throws: the action has already happened and
 * its caller gets its result; a write that fails is logged at error level
 * with the whole event, so it is not lost silently.
 */
export async function recordAuditEvent(deps: { persistence: Persistence; logger: Logger }, input: AuditEventInput): Promise<void> {
  const row = {
    id: randomUUID(),
    organizationId: input.actor.organizationId,
    at: new Date(),
    actorKind: input.actor.kind,
    userId: input.actor.userId,
    tokenId: input.actor.tokenId,
    action: input.action,
    procedure: input.procedure,
    connectionId: input.connectionId,
    queueName: input.queueName,
    parameters: JSON.stringify(input.parameters ?? null),
    outcome: input.outcome,
    errorCode: input.errorCode,
    counts: input.counts ? JSON.stringify(input.counts) : null,
  };
  try {
    const em = deps.persistence.fork();
    em.create(AuditEvent, row);
    await em.flush();
  } catch (error) {
    deps.logger.error({ err: error, auditEvent: row }, 'AUDIT TRAIL WRITE FAILED: the action ran but is not in the audit trail');
  }
}
