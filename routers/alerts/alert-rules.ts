import { randomUUID } from 'node:crypto';
import { maxRulesPerConnection, type AlertRuleView } from '../../contracts/alerts.js';
import { AppError } from '../../contracts/app-error.js';
import { AlertDestination, AlertRule, type AlertRuleRow } from '../../server/persistence/entities/alerts.js';
import type { EntityManager } from '../../server/persistence/orm.js';

export interface RuleScope {
  em: EntityManager;
  organizationId: string;
  connectionId: string;
}

export interface RuleFields {
  name: string;
  type: AlertRuleRow['type'];
  threshold: number;
  windowMinutes: number;
  minVolume?: number | null | undefined;
  queues?: { include: string[]; exclude: string[] } | undefined;
  destinationIds: string[];
  cooldownMinutes: number;
  snoozedUntil?: string | null | undefined;
  enabled: boolean;
}

export function toRuleView(row: AlertRuleRow): AlertRuleView {
  return {
    id: row.id,
    connectionId: row.connectionId,
    name: row.name,
    type: row.type,
    threshold: row.threshold,
    windowMinutes: row.windowMinutes,
    minVolume: row.minVolume ?? null,
    queues: row.queues,
    destinationIds: row.destinationIds,
    cooldownMinutes: row.cooldownMinutes,
    snoozedUntil: row.snoozedUntil?.toISOString() ?? null,
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The rule of this connection (and organization), or 404. */
export async function findRule({ em, organizationId, connectionId }: RuleScope, ruleId: string): Promise<AlertRuleRow> {
  const row = await em.findOne(AlertRule, { id: ruleId, organizationId, connectionId });
  if (!row)
    throw new AppError('NOT_FOUND', `Alert rule ${ruleId} was not found on connection "${connectionId}"`, { ruleId });
  return row;
}

/** Every destination a rule names must be one of the organization's. */
async function assertDestinations(scope: RuleScope, ids: string[]): Promise<void> {
  const found = await scope.em.find(AlertDestination, { id: { $in: ids }, organizationId: scope.organizationId });
  const unknown = ids.filter((id) => !found.some((row) => row.id === id));
  if (unknown.length > 0)
    throw new AppError('VALIDATION_FAILED', `Unknown alert destination(s): ${unknown.join(', ')}`, {
      field: 'destinationIds',
    });
}

export async function createRule(scope: RuleScope, fields: RuleFields): Promise<AlertRuleView> {
  const { em, organizationId, connectionId } = scope;
  if ((await em.count(AlertRule, { connectionId, organizationId })) >= maxRulesPerConnection) {
    throw new AppError('CONFLICT', `A connection has at most ${maxRulesPerConnection} alert rules; remove one first`);
  }
  await assertDestinations(scope, fields.destinationIds);
  const now = new Date();
  const row = em.create(AlertRule, {
    id: randomUUID(),
    organizationId,
    connectionId,
    ...columns(fields),
    createdAt: now,
    updatedAt: now,
  } as AlertRuleRow);
  await em.flush();
  return toRuleView(row);
}

export async function updateRule(
  scope: RuleScope,
  ruleId: string,
  changes: Partial<RuleFields>,
): Promise<AlertRuleView> {
  const row = await findRule(scope, ruleId);
  if (changes.destinationIds) await assertDestinations(scope, changes.destinationIds);
  const merged = { ...toRuleView(row), ...dropUndefined(changes) } as RuleFields;
  Object.assign(row, columns(merged), { updatedAt: new Date() });
  await scope.em.flush();
  return toRuleView(row);
}

function columns(fields: RuleFields) {
  return {
    name: fields.name,
    type: fields.type,
    threshold: fields.threshold,
    windowMinutes: fields.windowMinutes,
    minVolume: fields.minVolume ?? null,
    queues: fields.queues ?? { include: ['*'], exclude: [] },
    destinationIds: [...new Set(fields.destinationIds)],
    cooldownMinutes: fields.cooldownMinutes,
    snoozedUntil: fields.snoozedUntil ? new Date(fields.snoozedUntil) : null,
    enabled: fields.enabled,
  };
}

const dropUndefined = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
