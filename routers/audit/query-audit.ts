import type { FilterQuery } from '@mikro-orm/core';
import type { AuditEventView, AuditPage, AuditQuery } from '../../contracts/audit.js';
import { AuditEvent, type AuditEventRecord } from '../../server/persistence/entities/audit-event.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import { AppError } from '../../contracts/app-error.js';
import { redactStoredParameters } from '../../server/audit/redact.js';

interface Cursor {
  at: Date;
  id: string;
}

const encodeCursor = (event: AuditEventRecord) =>
  Buffer.from(JSON.stringify([event.at.toISOString(), event.id])).toString('base64url');

function decodeCursor(cursor: string): Cursor {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const date = new Date(at);
    if (typeof id !== 'string' || Number.isNaN(date.getTime())) throw new Error('malformed');
    return { at: date, id };
  } catch {
    throw new AppError('VALIDATION_FAILED', 'cursor is not a cursor this service returned');
  }
}

const parseJson = (text: string | null | undefined): unknown => (text ? JSON.parse(text) : null);

export function eventView(event: AuditEventRecord): AuditEventView {
  return {
    id: event.id,
    at: event.at.toISOString(),
    organizationId: event.organizationId,
    actor: {
      kind: event.actorKind as AuditEventView['actor']['kind'],
      userId: event.userId ?? null,
      tokenId: event.tokenId ?? null,
    },
    action: event.action,
    procedure: event.procedure,
    connectionId: event.connectionId ?? null,
    queueName: event.queueName ?? null,
    parameters: redactStoredParameters(parseJson(event.parameters)),
    outcome: event.outcome as AuditEventView['outcome'],
    errorCode: event.errorCode ?? null,
    counts: parseJson(event.counts) as AuditEventView['counts'],
    reason: event.reason ?? null,
  };
}

/** The organization's audit events, newest first, filtered, one keyset page at a time. */
export async function queryAudit(
  input: AuditQuery & { em: EntityManager; organizationId: string },
): Promise<AuditPage> {
  const where: FilterQuery<AuditEventRecord>[] = [{ organizationId: input.organizationId }];
  if (input.connectionId) where.push({ connectionId: input.connectionId });
  if (input.action) where.push({ action: input.action.endsWith('.') ? { $like: `${input.action}%` } : input.action });
  if (input.from) where.push({ at: { $gte: new Date(input.from) } });
  if (input.to) where.push({ at: { $lt: new Date(input.to) } });
  if (input.cursor) {
    const cursor = decodeCursor(input.cursor);
    where.push({ $or: [{ at: { $lt: cursor.at } }, { at: cursor.at, id: { $lt: cursor.id } }] });
  }
  const rows = await input.em.find(
    AuditEvent,
    { $and: where },
    { orderBy: { at: 'desc', id: 'desc' }, limit: input.limit + 1 },
  );
  const page = rows.slice(0, input.limit);
  return { events: page.map(eventView), nextCursor: rows.length > input.limit ? encodeCursor(page.at(-1)!) : null };
}
