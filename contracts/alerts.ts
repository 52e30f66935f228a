import { z } from 'zod';
import { isoTime } from './times.js';
import { databaseText } from './database-text.js';
import { connectionParams } from './params.js';
import { strictBoolean } from './strict-boolean.js';
import { strictNumber } from './strict-number.js';

export const alertRuleTypes = [
  'failed_count',
  'failure_rate',
  'backlog',
  'stalled',
  'store_down',
  'store_memory',
] as const;
export type AlertRuleType = (typeof alertRuleTypes)[number];
/** Rule types about the store as a whole; the others fire per queue. */
export const storeRuleTypes: readonly AlertRuleType[] = ['store_down', 'store_memory'];
export const maxRulesPerConnection = 100;

const glob = z.string().min(1).max(200);
const queueSelection = z
  .strictObject({
    include: z
      .array(glob)
      .max(50)
      .default(['*'])
      .describe('Globs of queue names the rule watches (`*` any run, `?` one character).'),
    exclude: z.array(glob).max(50).default([]).describe('Globs of queue names left out.'),
  })
  .describe('Which queues a per-queue rule watches; ignored by store rules.');

const ruleFields = {
  name: z.string().trim().min(1).max(100).describe('A name for the rule, trimmed.'),
  type: z
    .enum(alertRuleTypes)
    .describe(
      '`failed_count`: failures in the window ≥ threshold; `failure_rate`: failed / finished ≥ threshold % (at least `minVolume` finished); `backlog`: waiting ≥ threshold for the whole window; `stalled`: oldest waiting job older than the window, or jobs waiting and none completed in it; `store_down`: store unreachable for the whole window; `store_memory`: used memory ≥ threshold % of maxmemory.',
    ),
  threshold: strictNumber(z.number().min(0).max(1e12)).describe(
    'Count, percent or (for `stalled` and `store_down`) ignored.',
  ),
  windowMinutes: strictNumber(z.number().int().min(1).max(1440)).describe(
    'The window the rule looks at, in minutes (at most a day).',
  ),
  minVolume: strictNumber(z.number().int().min(0).max(1e9))
    .nullable()
    .optional()
    .describe('`failure_rate` only: finished jobs the window needs before the rate counts (default 1).'),
  queues: queueSelection.optional(),
  destinationIds: z
    .array(z.string().min(1).max(36))
    .max(10)
    .default([])
    .describe('Destinations notified when the rule fires or resolves (at most 10).'),
  cooldownMinutes: strictNumber(z.number().int().min(0).max(10_080))
    .default(15)
    .describe('Least time between two firings of the rule for one queue.'),
  snoozedUntil: z.iso
    .datetime({ offset: true })
    .nullable()
    .optional()
    .describe('No firing and no delivery until then.'),
  enabled: strictBoolean().default(true).describe('`false`: the rule is kept but never evaluated.'),
};

export const createAlertRuleInput = connectionParams.extend(ruleFields);
export const alertRuleParams = connectionParams.extend({
  ruleId: databaseText().min(1).max(36).describe('Alert rule id.'),
});
export const updateAlertRuleInput = alertRuleParams.extend(
  Object.fromEntries(Object.entries(ruleFields).map(([key, schema]) => [key, (schema as z.ZodType).optional()])) as {
    [K in keyof typeof ruleFields]: z.ZodOptional<(typeof ruleFields)[K]>;
  },
);

export const alertRuleSchema = z
  .object({
    id: z.string(),
    connectionId: z.string(),
    name: z.string(),
    type: z.enum(alertRuleTypes),
    threshold: z.number(),
    windowMinutes: z.number().int(),
    minVolume: z.number().int().nullable(),
    queues: z.object({ include: z.array(z.string()), exclude: z.array(z.string()) }),
    destinationIds: z.array(z.string()),
    cooldownMinutes: z.number().int(),
    snoozedUntil: isoTime().nullable(),
    enabled: z.boolean(),
    createdAt: isoTime(),
    updatedAt: isoTime(),
  })
  .meta({ id: 'AlertRule' });
export const alertRuleListSchema = z.object({ rules: z.array(alertRuleSchema) });

export const alertRuleTestSchema = z.object({
  wouldFire: z.boolean(),
  value: z.number().nullable().describe('The worst value found (largest for every type).'),
  threshold: z.number(),
  queues: z
    .array(z.object({ queueName: z.string(), value: z.number(), wouldFire: z.boolean() }))
    .describe('Per-queue values (empty for store rules).'),
});

export const alertEventSchema = z
  .object({
    id: z.string(),
    ruleId: z.string(),
    state: z.enum(['firing', 'resolved']),
    queueName: z.string().nullable(),
    value: z.number(),
    threshold: z.number(),
    firedAt: isoTime(),
    resolvedAt: isoTime().nullable(),
    acknowledgedAt: isoTime().nullable(),
  })
  .meta({ id: 'AlertEvent' });

export const listAlertEventsInput = connectionParams.extend({
  state: z.enum(['firing', 'resolved']).optional().describe('Only events in this state.'),
  ruleId: z.string().min(1).max(36).optional().describe('Only events of this rule.'),
  cursor: z.string().max(200).optional().describe('`nextCursor` of the previous page.'),
  limit: z.coerce.number().int().min(1).max(100).default(50).describe('Events per page, at most 100.'),
});
export const alertEventPageSchema = z.object({
  events: z.array(alertEventSchema).describe('Newest first.'),
  nextCursor: z.string().nullable(),
});
export const alertEventParams = connectionParams.extend({
  eventId: databaseText().min(1).max(36).describe('Alert event id.'),
});
export const acknowledgeAlertEventInput = alertEventParams.extend({
  snoozeRuleUntil: z.iso
    .datetime({ offset: true })
    .optional()
    .describe(
      "Also snooze the event's rule until then (its `snoozedUntil`): no firing and no delivery of it, for any queue, until that instant.",
    ),
});
export const acknowledgedAlertEventSchema = alertEventSchema.extend({
  ruleSnoozedUntil: isoTime().nullable().describe("The rule's `snoozedUntil` after the call (null: not snoozed)."),
});

export const alertDestinationTypes = ['webhook', 'slack'] as const;
export const createAlertDestinationInput = z.strictObject({
  type: z
    .enum(alertDestinationTypes)
    .describe(
      '`webhook`: a signed JSON POST of each event; `slack`: a `{ text }` message for a Slack incoming webhook.',
    ),
  name: z.string().trim().min(1).max(100).describe('A name for the destination, trimmed.'),
  url: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .describe('Where deliveries are POSTed; kept encrypted, shown only as its origin.'),
});
export const alertDestinationParams = z.strictObject({
  destinationId: databaseText().min(1).max(36).describe('Alert destination id.'),
});

export const alertDestinationSchema = z
  .object({
    id: z.string(),
    type: z.enum(alertDestinationTypes),
    name: z.string(),
    url: z
      .string()
      .describe(
        'Scheme, host and port only (userinfo as `****`, path and query as `/…`): the path of a webhook URL is often its secret.',
      ),
    createdAt: isoTime(),
  })
  .meta({ id: 'AlertDestination' });
export const createdAlertDestinationSchema = alertDestinationSchema.extend({
  secret: z.string().describe('Keys the `Bullpen-Signature` (and `X-Bullpen-Signature`) HMAC; shown this once.'),
});
export const alertDestinationListSchema = z.object({ destinations: z.array(alertDestinationSchema) });

export const alertDeliverySchema = z.object({
  id: z.string(),
  eventId: z
    .string()
    .describe('`<alertEventId>:firing`, `<alertEventId>:resolved` or `test:<id>`; sent as X-Bullpen-Event-Id.'),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z
    .string()
    .nullable()
    .describe(
      '`answered <status>`, no HTTP answer (unreachable, silent or not HTTP), or refused by SERVICE_WEBHOOK_ALLOW: one text per outcome, never the network error.',
    ),
  createdAt: isoTime(),
  deliveredAt: isoTime().nullable(),
  nextAttemptAt: isoTime().nullable(),
});
export const alertDeliveryListSchema = z.object({
  deliveries: z.array(alertDeliverySchema).describe('Newest first, at most 100.'),
});
export const alertDestinationTestSchema = z.object({
  delivered: z.boolean(),
  statusCode: z.number().int().nullable(),
  error: z.string().nullable(),
});

export type AlertRuleView = z.infer<typeof alertRuleSchema>;
export type AlertEventView = z.infer<typeof alertEventSchema>;
export type AlertRuleTest = z.infer<typeof alertRuleTestSchema>;
