import type { BullpenClient } from '../../index.js';
import { defineCommand, integerFlag } from '../command.js';
import { UsageError } from '../context.js';
import { formatTable, writeJson } from '../output.js';
import { parseSpan } from '../sparkline.js';

const views = ['rules', 'destinations', 'events', 'ack', 'snooze'] as const;
type View = (typeof views)[number];
const eventStates = ['firing', 'resolved'] as const;

/** ISO text as the tables show times: to the second, UTC. */
const shortIso = (iso: string | null) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '-');

/** `2h` from now, an ISO instant as given, or `off` (null: lift the snooze). */
function snoozeUntil(text: string): string | null {
  if (text === 'off') return null;
  const span = parseSpan(text);
  if (span !== undefined) return new Date(Date.now() + span).toISOString();
  if (!Number.isNaN(Date.parse(text)) && /^\d{4}-\d\d-\d\dT/.test(text)) return text;
  throw new UsageError(
    `a snooze is a span such as 30m, 2h or 1d, an ISO time such as 2026-05-01T06:00:00Z, or off; got "${text}"`,
  );
}

async function ruleNames(client: BullpenClient, connectionId: string): Promise<Map<string, string>> {
  const { rules } = await client.alerts.listRules.query({ connectionId });
  return new Map(rules.map((rule) => [rule.id, rule.name]));
}

export const alertsCommand = defineCommand({
  name: 'alerts',
  usage:
    'rules | destinations | events [--state firing|resolved] [--rule ID] [--limit N] [--cursor C] | ack <event-id> [--snooze 2h] | snooze <rule-id> <2h|ISO time|off>',
  summary:
    "Alerting: the connection's rules, the organization's destinations, the events rules fired (newest first), acknowledging one, and snoozing a rule",
  options: {
    state: { type: 'string' },
    rule: { type: 'string' },
    limit: { type: 'string' },
    cursor: { type: 'string' },
    snooze: { type: 'string' },
  },
  flagHelp: {
    snooze: "ack: also snooze the event's rule for this long (30m, 2h, 1d) or until an ISO time",
    state: 'events: only firing or only resolved ones',
    rule: 'events: only those of this rule id',
    limit: 'events: how many per page (default 50, at most 100)',
    cursor: 'events: the next page, as the previous page named it',
  },
  examples: [
    'bullpen alerts rules',
    'bullpen alerts events --state firing',
    'bullpen alerts ack 5f0c7d1e-8a41-4a39-9d6e-3c1f2b7a9e10 --snooze 2h',
    'bullpen alerts snooze 0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6 off',
    'bullpen alerts destinations --json',
  ],
  arity: [1, 3],
  async run({ client, config, io, connectionId }, { positionals: [view, eventId, until], values }) {
    if (!views.includes(view as View))
      throw new UsageError(`bullpen alerts takes one of ${views.join(', ')}, got "${view}"`);
    if (view === 'snooze' && until === undefined)
      throw new UsageError('usage: bullpen alerts snooze <rule-id> <2h|ISO time|off>');
    if (view !== 'snooze' && until !== undefined) throw new UsageError(`bullpen alerts ${view} takes at most one id`);
    if ((view === 'ack' || view === 'snooze') !== (eventId !== undefined))
      throw new UsageError(
        view === 'ack' ? 'usage: bullpen alerts ack <event-id>' : `bullpen alerts ${view} takes no id`,
      );
    if (view !== 'ack' && values.snooze !== undefined) throw new UsageError('--snooze goes with bullpen alerts ack');
    if (view !== 'events' && (values.state || values.rule || values.limit || values.cursor))
      throw new UsageError('--state, --rule, --limit and --cursor go with bullpen alerts events');
    if (view === 'destinations') {
      const { destinations } = await client.alertDestinations.list.query();
      if (config.json) return writeJson(io.stdout, { destinations });
      return void io.stdout.write(
        formatTable(
          ['id', 'type', 'name', 'url', 'created'],
          destinations.map((d) => [d.id, d.type, d.name, d.url, shortIso(d.createdAt)]),
        ),
      );
    }
    const connection = await connectionId();
    if (view === 'rules') {
      const { rules } = await client.alerts.listRules.query({ connectionId: connection });
      if (config.json) return writeJson(io.stdout, { rules });
      const rows = rules.map((r) => [
        r.id,
        r.name,
        r.type,
        r.threshold,
        `${r.windowMinutes}m`,
        [...r.queues.include, ...r.queues.exclude.map((glob) => `!${glob}`)].join(' '),
        r.destinationIds.length,
        !r.enabled ? 'disabled' : r.snoozedUntil ? `snoozed until ${shortIso(r.snoozedUntil)}` : 'enabled',
      ]);
      return void io.stdout.write(
        formatTable(['id', 'name', 'type', 'threshold', 'window', 'queues', 'destinations', 'state'], rows),
      );
    }
    if (view === 'ack') {
      const snooze = values.snooze === undefined ? undefined : snoozeUntil(values.snooze);
      if (snooze === null)
        throw new UsageError('--snooze takes a span or a time; lift a snooze with bullpen alerts snooze <rule-id> off');
      const event = await client.alerts.acknowledgeEvent.mutate({
        connectionId: connection,
        eventId: eventId!,
        ...(snooze ? { snoozeRuleUntil: snooze } : {}),
      });
      if (config.json) return writeJson(io.stdout, event);
      const snoozed = snooze ? `; its rule is snoozed until ${shortIso(event.ruleSnoozedUntil)}` : '';
      return void io.stdout.write(
        `acknowledged alert event ${event.id} (${event.state}, ${event.queueName ?? 'store'}) at ${shortIso(event.acknowledgedAt)}${snoozed}\n`,
      );
    }
    if (view === 'snooze') {
      const rule = await client.alerts.updateRule.mutate({
        connectionId: connection,
        ruleId: eventId!,
        snoozedUntil: snoozeUntil(until!),
      });
      if (config.json) return writeJson(io.stdout, rule);
      return void io.stdout.write(
        rule.snoozedUntil
          ? `rule ${rule.name} snoozed until ${shortIso(rule.snoozedUntil)}\n`
          : `rule ${rule.name} is no longer snoozed\n`,
      );
    }
    if (values.state !== undefined && !eventStates.includes(values.state as 'firing'))
      throw new UsageError(`--state takes firing or resolved, got "${values.state}"`);
    const page = await client.alerts.listEvents.query({
      connectionId: connection,
      limit: integerFlag('limit', values.limit, 50),
      ...(values.state ? { state: values.state as (typeof eventStates)[number] } : {}),
      ...(values.rule ? { ruleId: values.rule } : {}),
      ...(values.cursor ? { cursor: values.cursor } : {}),
    });
    if (config.json) return writeJson(io.stdout, page);
    const names = await ruleNames(client, connection);
    const rows = page.events.map((e) => [
      e.id,
      names.get(e.ruleId) ?? e.ruleId,
      e.state,
      e.queueName ?? '(store)',
      `${e.value} / ${e.threshold}`,
      shortIso(e.firedAt),
      shortIso(e.resolvedAt),
      shortIso(e.acknowledgedAt),
    ]);
    io.stdout.write(
      formatTable(['id', 'rule', 'state', 'queue', 'value / threshold', 'fired', 'resolved', 'acknowledged'], rows),
    );
    const same = [
      ['--state', values.state],
      ['--rule', values.rule],
      ['--limit', values.limit],
    ].flatMap(([flag, value]) => (value ? [`${flag} ${value}`] : []));
    const next = page.nextCursor
      ? `; next page: ${['bullpen alerts events', ...same, `--cursor ${page.nextCursor}`].join(' ')}`
      : '';
    io.stdout.write(`${page.events.length} event(s)${next}\n`);
  },
});
