import type { AlertEventView } from '../../contracts/alerts.js';
import { AppError } from '../../contracts/app-error.js';
import { AlertEvent, AlertRule, type AlertEventRow } from '../../server/persistence/entities/alerts.js';
import type { RuleScope } from './alert-rules.js';

export function toEventView(row: AlertEventRow): AlertEventView {
  return {
    id: row.id,
    ruleId: row.ruleId,
    state: row.state as AlertEventView['state'],
    queueName: row.queueName ?? null,
    value: row.value,
    threshold: row.threshold,
    firedAt: row.firedAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    acknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
  };
}

/** `<firedAt ms>.<id>` of the last event of a page, base64url: the next page starts after it. */
const encodeCursor = (row: AlertEventRow) => Buffer.from(`${row.firedAt.getTime()}.${row.id}`).toString('base64url');
function decodeCursor(cursor: string): { firedAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('.');
  if (!at || !/^\d+$/.test(at) || !id)
    throw new AppError('VALIDATION_FAILED', 'cursor is not one this route gave', { field: 'cursor' });
  return { firedAt: new Date(Number(at)), id };
}

/** Events of the organization's rules on this connection, newest first, with a keyset cursor. */
export async function listEvents(
  scope: RuleScope,
  query: {
    state?: 'firing' | 'resolved' | undefined;
    ruleId?: string | undefined;
    cursor?: string | undefined;
    limit: number;
  },
) {
  const rules = await scope.em.find(
    AlertRule,
    { connectionId: scope.connectionId, organizationId: scope.organizationId },
    { fields: ['id'] },
  );
  const ruleIds = rules.map((rule) => rule.id).filter((id) => query.ruleId === undefined || id === query.ruleId);
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  const rows = await scope.em.find(
    AlertEvent,
    {
      ruleId: { $in: ruleIds },
      ...(query.state ? { state: query.state } : {}),
      ...(after
        ? { $or: [{ firedAt: { $lt: after.firedAt } }, { firedAt: after.firedAt, id: { $lt: after.id } }] }
        : {}),
    },
    { orderBy: { firedAt: 'desc', id: 'desc' }, limit: query.limit + 1 },
  );
  const page = rows.slice(0, query.limit);
  return { events: page.map(toEventView), nextCursor: rows.length > query.limit ? encodeCursor(page.at(-1)!) : null };
}

/**
 * Marks an event seen (the first time is kept) and, with `snoozeRuleUntil`, snoozes its rule until
 * then: both in one transaction, so an acknowledgement never lands without the snooze it asked for.
 */
export async function acknowledgeEvent(
  scope: RuleScope,
  eventId: string,
  snoozeRuleUntil?: string,
): Promise<AlertEventView & { ruleSnoozedUntil: string | null }> {
  return scope.em.transactional(async (tx) => {
    const event = await tx.findOne(AlertEvent, { id: eventId, connectionId: scope.connectionId });
    const rule = event && (await tx.findOne(AlertRule, { id: event.ruleId, organizationId: scope.organizationId }));
    if (!event || !rule) throw new AppError('NOT_FOUND', `Alert event ${eventId} was not found`, { eventId });
    event.acknowledgedAt ??= new Date();
    if (snoozeRuleUntil !== undefined)
      Object.assign(rule, { snoozedUntil: new Date(snoozeRuleUntil), updatedAt: new Date() });
    await tx.flush();
    return { ...toEventView(event), ruleSnoozedUntil: rule.snoozedUntil?.toISOString() ?? null };
  });
}
