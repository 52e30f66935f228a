import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { alertRuleTypes } from '../../../contracts/alerts.js';

/** Where alerts go: a signed webhook or a Slack incoming webhook; URL and secret kept sealed. */
export const AlertDestination = defineEntity({
  name: 'AlertDestination',
  tableName: 'alert_destination',
  properties: {
    id: p.string().primary().length(36),
    organizationId: p.string().length(36).index(),
    type: p.string().length(10),
    name: p.string().length(100),
    urlSealed: p.text(),
    secretSealed: p.text(),
    createdAt: p.datetime(),
  },
});

/** A condition on a connection's history, evaluated after every sample. */
export const AlertRule = defineEntity({
  name: 'AlertRule',
  tableName: 'alert_rule',
  properties: {
    id: p.string().primary().length(36),
    organizationId: p.string().length(36),
    connectionId: p.string().length(200).index(),
    name: p.string().length(100),
    type: p.enum(alertRuleTypes).length(20),
    threshold: p.float(),
    windowMinutes: p.integer(),
    minVolume: p.integer().nullable(),
    queues: p.json<{ include: string[]; exclude: string[] }>(),
    destinationIds: p.json<string[]>(),
    cooldownMinutes: p.integer(),
    snoozedUntil: p.datetime().nullable(),
    enabled: p.boolean(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  },
});

/** One firing of a rule (for one queue, or for the connection), resolved when the condition clears. */
export const AlertEvent = defineEntity({
  name: 'AlertEvent',
  tableName: 'alert_event',
  properties: {
    id: p.string().primary().length(36),
    ruleId: p.string().length(36),
    connectionId: p.string().length(200),
    queueName: p.text().nullable(),
    state: p.string().length(10),
    value: p.float(),
    threshold: p.float(),
    firedAt: p.datetime(),
    resolvedAt: p.datetime().nullable(),
    acknowledgedAt: p.datetime().nullable(),
  },
});

/** One message to one destination (`<eventId>:firing` or `:resolved`), retried until delivered or an hour old. */
export const AlertDelivery = defineEntity({
  name: 'AlertDelivery',
  tableName: 'alert_delivery',
  properties: {
    id: p.string().primary().length(36),
    destinationId: p.string().length(36),
    eventKey: p.string().length(80),
    payload: p.text(),
    status: p.string().length(10),
    attempts: p.integer(),
    lastStatusCode: p.integer().nullable(),
    lastError: p.text().nullable(),
    nextAttemptAt: p.datetime(),
    createdAt: p.datetime(),
    deliveredAt: p.datetime().nullable(),
  },
});

export type AlertDestinationRow = InferEntity<typeof AlertDestination>;
export type AlertRuleRow = InferEntity<typeof AlertRule>;
export type AlertEventRow = InferEntity<typeof AlertEvent>;
export type AlertDeliveryRow = InferEntity<typeof AlertDelivery>;
