import { randomUUID } from 'node:crypto';
import { AlertEvent, AlertRule, type AlertEventRow, type AlertRuleRow } from '../persistence/entities/alerts.js';
import type { EntityManager } from '../persistence/orm.js';
import { enqueueDeliveries } from './deliveries.js';
import { readRule } from './rule-values.js';
import type { DeliveryPayload } from './send-delivery.js';

export interface EvaluationTarget {
  connection: { id: string; name: string };
  now: number;
  sampleIntervalMs: number;
}

/**
 * After a sample: each enabled rule of the connection is read; a subject (queue, or the store)
 * that crosses its threshold opens a firing event unless one is open, the rule is snoozed or the
 * cooldown since its last firing has not passed; an open event whose subject no longer crosses
 * it resolves. Both moments are queued for delivery to the rule's destinations.
 */
export async function evaluateRules(em: EntityManager, target: EvaluationTarget): Promise<void> {
  const rules = await em.find(AlertRule, { connectionId: target.connection.id, enabled: true });
  for (const rule of rules) await evaluateRule(em, rule, target);
  await em.flush();
}

async function evaluateRule(em: EntityManager, rule: AlertRuleRow, target: EvaluationTarget): Promise<void> {
  const reading = await readRule(em, target.connection.id, rule, target.now, target.sampleIntervalMs);
  const open = new Map(
    (await em.find(AlertEvent, { ruleId: rule.id, state: 'firing' })).map((event) => [event.queueName ?? '', event]),
  );
  const snoozed =
    rule.snoozedUntil !== null && rule.snoozedUntil !== undefined && rule.snoozedUntil.getTime() > target.now;
  const now = new Date(target.now);
  for (const subject of reading.subjects) {
    const key = subject.queueName ?? '';
    const event = open.get(key);
    open.delete(key);
    if (event && !subject.firing) await resolve(em, rule, event, subject.value, now, snoozed, target);
    if (event || !subject.firing || snoozed || (await coolingDown(em, rule, subject.queueName, target.now))) continue;
    const fired = em.create(AlertEvent, {
      id: randomUUID(),
      ruleId: rule.id,
      connectionId: target.connection.id,
      queueName: subject.queueName,
      state: 'firing',
      value: subject.value,
      threshold: reading.threshold,
      firedAt: now,
      resolvedAt: null,
      acknowledgedAt: null,
    });
    await enqueueDeliveries(em, rule.destinationIds, payload(rule, fired, 'firing', target), now);
  }
  // Subjects gone from the window (a removed queue) resolve too.
  for (const event of open.values()) await resolve(em, rule, event, 0, now, snoozed, target);
}

async function resolve(
  em: EntityManager,
  rule: AlertRuleRow,
  event: AlertEventRow,
  value: number,
  now: Date,
  snoozed: boolean,
  target: EvaluationTarget,
): Promise<void> {
  event.state = 'resolved';
  event.resolvedAt = now;
  if (!snoozed)
    await enqueueDeliveries(em, rule.destinationIds, { ...payload(rule, event, 'resolved', target), value }, now);
}

async function coolingDown(
  em: EntityManager,
  rule: AlertRuleRow,
  queueName: string | null,
  now: number,
): Promise<boolean> {
  if (rule.cooldownMinutes === 0) return false;
  const last = await em.findOne(AlertEvent, { ruleId: rule.id, queueName }, { orderBy: { firedAt: 'desc' } });
  return last !== null && last.firedAt.getTime() > now - rule.cooldownMinutes * 60_000;
}

function payload(
  rule: AlertRuleRow,
  event: AlertEventRow,
  state: 'firing' | 'resolved',
  target: EvaluationTarget,
): DeliveryPayload {
  return {
    event: `${event.id}:${state}`,
    rule: { id: rule.id, name: rule.name, type: rule.type },
    connection: target.connection,
    queueName: event.queueName ?? null,
    value: event.value,
    threshold: event.threshold,
    state,
    at: new Date(target.now).toISOString(),
  };
}
