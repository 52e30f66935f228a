import type { BullpenClient } from '../../index.js';
import { defineCommand, integerFlag } from '../command.js';
import { UsageError } from '../context.js';
import { formatTable, writeJson } from '../output.js';

const views = ['rules', 'destinations', 'events', 'ack'] as const;
type View = (typeof views)[number];
const eventStates = ['firing', 'resolved'] as const;

/** ISO text as the tables show times: to the second, UTC. */
const shortIso = (iso: string | null) => (iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '-');

async function ruleNames(client: BullpenClient, connectionId: string): Promise<Map<string, string>> {
  const { rules } = await client.alerts.listRules.query({ connectionId });
  return new Map(rules.map((rule) => [rule.id, rule.name]));
}

export const alertsCommand = defineCommand({
  name: 'alerts',
  usage: 'rules | destinations | events [--state firing|resolved] [--rule ID] [--limit N] [--cursor C] | ack <event-id>',
  summary: "Alerting: the connection's rules, the organization's destinations, the events rules fired (newest first), and acknowledging one",
  options: { state: { type: 'string' }, rule: { type: 'string' }, limit: { type: 'string' }, cursor: { type: 'string' } },
  flagHelp: {
    state: 'events: only firing or only resolved ones',
    rule: 'events: only those of this rule id',
    limit: 'events: how many per page (default 50, at most 100)',
    cursor: 'events: the next page, as the previous page named it',
  },
  examples: ['bullpen alerts rules', 'bullpen alerts events --state firing', 'bullpen alerts ack 5f0c7d1e-8a41-4a39-9d6e-3c1f2b7a9e10', 'bullpen alerts destinations --json'],
  arity: [1, 2],
  async run({ client, config, io, connectionId }, { positionals: [view, eventId], values }) {
    if (!views.includes(view as View)) throw new UsageError(`bullpen alerts takes one of ${views.join(', ')}, got "${view}"`);
    if ((view === 'ack') !== (eventId !== undefined)) throw new UsageError(view === 'ack' ? 'usage: bullpen alerts ack <event-id>' : `bullpen alerts ${view} takes no id`);
    if (view !== 'events' && (values.state || values.rule || values.limit || values.cursor)) throw new UsageError('--state, --rule, --limit and --cursor go with bullpen alerts events');
    if (view === 'destinations') {
      const { destinations } = await client.alertDestinations.list.query();
      if (config.json) return writeJson(io.stdout, { destinations });
      return void io.stdout.write(formatTable(['id', 'type', 'name', 'url', 'created'], destinations.map((d) => [d.id, d.type, d.name, d.url, shortIso(d.createdAt)])));
    }
    const connection = await connectionId();
    if (view === 'rules') {
      const { rules } = await client.alerts.listRules.query({ connectionId: connection });
      if (config.json) return writeJson(io.stdout, { rules });
      const rows = rules.map((r) => [
        r.id, r.name, r.type, r.threshold, `${r.windowMinutes}m`, [...r.queues.include, ...r.queues.exclude.map((glob) => `!${glob}`)].join(' '),
        r.destinationIds.length, !r.enabled ? 'disabled' : r.snoozedUntil ? `snoozed until ${shortIso(r.snoozedUntil)}` : 'enabled',
      ]);
      return void io.stdout.write(formatTable(['id', 'name', 'type', 'threshold', 'window', 'queues', 'destinations', 'state'], rows));
    }
    if (view === 'ack') {
      const event = await client.alerts.acknowledgeEvent.mutate({ connectionId: connection, eventId: eventId! });
      if (config.json) return writeJson(io.stdout, event);
      return void io.stdout.write(`acknowledged alert event ${event.id} (${event.state}, ${event.queueName ?? 'store'}) at ${shortIso(event.acknowledgedAt)}\n`);
    }
    if (values.state !== undefined && !eventStates.includes(values.state as 'firing')) throw new UsageError(`--state takes firing or resolved, got "${values.state}"`);
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
      e.id, names.get(e.ruleId) ?? e.ruleId, e.state, e.queueName ?? '(store)', `${e.value} / ${e.threshold}`, shortIso(e.firedAt), shortIso(e.resolvedAt), shortIso(e.acknowledgedAt),
    ]);
    io.stdout.write(formatTable(['id', 'rule', 'state', 'queue', 'value / threshold', 'fired', 'resolved', 'acknowledged'], rows));
    const same = [['--state', values.state], ['--rule', values.rule], ['--limit', values.limit]].flatMap(([flag, value]) => (value ? [`${flag} ${value}`] : []));
    const next = page.nextCursor ? `; next page: ${['bullpen alerts events', ...same, `--cursor ${page.nextCursor}`].join(' ')}` : '';
    io.stdout.write(`${page.events.length} event(s)${next}\n`);
  },
});
