import { randomUUID } from 'node:crypto';
import type { Actor } from '../auth/actor.js';
import type { Logger } from '../logger.js';
import { AuditEvent } from '../persistence/entities/audit-event.js';
import type { Persistence } from '../persistence/persistence.js';
import type { AuditActorKind, AuditOutcome } from '../../contracts/audit.js';

export interface AuditEventInput {
  /** Besides a procedure's actor: `anonymous` for a sign-in that failed before anyone was known. */
  actor: Pick<Actor, 'userId' | 'tokenId' | 'organizationId'> & { kind: AuditActorKind };
  action: string;
  procedure: string;
  connectionId: string | null;
  queueName: string | null;
  /** Already redacted. */
  parameters: unknown;
  outcome: AuditOutcome;
  errorCode: string | null;
  counts: Record<string, unknown> | null;
  /** The reason the caller gave (server/audit/call-reason.ts); absent or null: none. */
  reason?: string | null;
}

/** Marks a value cut to fit its column. */
export const cutMarker = '…[cut]';
/** A failed write is logged in one line of at most this many bytes (the row, cut), never a 100 KB line. */
export const maxLoggedLineBytes = 2048;

/** Column widths of audit_event (see the entity); longer values are cut with the marker, never refused. */
const columnWidths = {
  action: 100,
  procedure: 200,
  connectionId: 200,
  queueName: 1000,
  errorCode: 50,
  reason: 1000,
} as const;

function fitToWidth(value: string, width: number): string;
function fitToWidth(value: string | null, width: number): string | null;
function fitToWidth(value: string | null, width: number): string | null {
  return value !== null && value.length > width ? `${value.slice(0, width - cutMarker.length)}${cutMarker}` : value;
}

function auditRow(input: AuditEventInput) {
  return {
    id: randomUUID(),
    organizationId: input.actor.organizationId,
    at: new Date(),
    actorKind: input.actor.kind,
    userId: input.actor.userId,
    tokenId: input.actor.tokenId,
    action: fitToWidth(input.action, columnWidths.action),
    procedure: fitToWidth(input.procedure, columnWidths.procedure),
    connectionId: fitToWidth(input.connectionId, columnWidths.connectionId),
    queueName: fitToWidth(input.queueName, columnWidths.queueName),
    parameters: JSON.stringify(input.parameters ?? null),
    outcome: input.outcome,
    errorCode: fitToWidth(input.errorCode, columnWidths.errorCode),
    counts: input.counts ? JSON.stringify(input.counts) : null,
    reason: fitToWidth(input.reason ?? null, columnWidths.reason),
  };
}

/** The row as logged when it cannot be written: each text cut so the whole line stays under 2 KB. */
function compactRow(row: ReturnType<typeof auditRow>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      key,
      typeof value === 'string' ? fitToWidth(value, key === 'parameters' ? 600 : 150) : value,
    ]),
  );
}

/**
 * Writes one audit event. Never throws: the action has already happened and
 * its caller gets its result. Values are cut to their columns so a huge queue
 * name cannot make the write fail; a write that fails anyway (database away)
 * is tried once more, then logged at error level, cut to 2 KB.
 */
export async function recordAuditEvent(
  deps: { persistence: Persistence; logger: Logger },
  input: AuditEventInput,
): Promise<void> {
  const row = auditRow(input);
  const write = async () => {
    const em = deps.persistence.fork();
    em.create(AuditEvent, row);
    await em.flush();
  };
  try {
    await write().catch(write);
  } catch (error) {
    // The driver's message can quote the whole statement with its values: only its start is kept.
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 300);
    deps.logger.error(
      { reason, auditEvent: compactRow(row) },
      'AUDIT TRAIL WRITE FAILED: the action ran but is not in the audit trail',
    );
  }
}
