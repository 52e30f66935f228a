import { AppError } from '../../contracts/app-error.js';
import type {
  AlertRuleDefinition,
  ConnectionDefinition,
  QueueSettingsDefinition,
  SchedulerDefinition,
} from '../../contracts/definitions.js';
import type { AlertRuleRow } from '../../server/persistence/entities/alerts.js';
import { ambiguous, assertUnique, canonical, changedFields } from './compare.js';
import { ruleDefinition } from './current-definitions.js';
import type { ChangeList, ConnectionStep, QueueSettingsStep, RuleStep, SchedulerStep } from './import-plan.js';
import type { StoreDefinitions } from './store-definitions.js';

type Placed = { queueName: string; prefix?: string | undefined };
const keyOf = (prefix: string, queueName: string) => `${prefix}\u0000${queueName}`;

/** The prefix an item lives under: the one it states (one of the connection's), else the first holding it here, else the first. */
function placeIn(item: Placed, prefixes: string[], existing: ReadonlySet<string>, where: string): string {
  if (item.prefix !== undefined) {
    if (!prefixes.includes(item.prefix))
      throw new AppError(
        'VALIDATION_FAILED',
        `${where}: prefix "${item.prefix}" is not one of the connection's (${prefixes.join(', ')})`,
        { field: 'definitions' },
      );
    return item.prefix;
  }
  return prefixes.find((prefix) => existing.has(keyOf(prefix, item.queueName))) ?? prefixes[0]!;
}

/** A scheduler as compared: dates as instants, `immediately` (a one-off at creation, never stored) left out. */
function comparable(definition: SchedulerDefinition) {
  const { immediately: _immediately, startDate, endDate, ...schedule } = definition.schedule;
  const instants = {
    ...(startDate ? { startDate: new Date(startDate).toISOString() } : {}),
    ...(endDate ? { endDate: new Date(endDate).toISOString() } : {}),
  };
  return {
    name: definition.name,
    data: definition.data ?? {},
    schedule: { ...schedule, ...instants },
    options: definition.options ?? {},
  };
}

function planQueues(
  definitions: QueueSettingsDefinition[],
  stored: StoreDefinitions,
  prefixes: string[],
  label: string,
  list: ChangeList,
): QueueSettingsStep[] {
  const existing = new Map(stored.queues.map((queue) => [keyOf(queue.prefix!, queue.queueName), queue]));
  const placed = definitions.map((definition) => ({
    definition,
    prefix: placeIn(definition, prefixes, new Set(existing.keys()), `${label}/${definition.queueName}`),
  }));
  assertUnique(
    placed.map(({ prefix, definition }) => `${prefix}:${definition.queueName}`),
    `under ${label} the queue settings of`,
  );
  const steps: QueueSettingsStep[] = [];
  for (const { definition, prefix } of placed) {
    const current = existing.get(keyOf(prefix, definition.queueName));
    existing.delete(keyOf(prefix, definition.queueName));
    const fields = changedFields(
      definition,
      current ?? { queueName: definition.queueName, globalConcurrency: null, globalRateLimit: null },
      ['globalConcurrency', 'globalRateLimit'],
    );
    if (
      !list.judge(
        'queueSettings',
        `${label}/${definition.queueName}`,
        current !== undefined || fields.length === 0,
        fields,
      )
    )
      continue;
    steps.push({
      definition,
      prefix,
      ...Object.fromEntries(fields.map((field) => [field, definition[field as 'globalConcurrency']])),
    });
  }
  for (const queue of existing.values()) list.add('queueSettings', `${label}/${queue.queueName}`, 'notInFile');
  return steps;
}

function planSchedulers(
  definitions: SchedulerDefinition[],
  stored: StoreDefinitions,
  prefixes: string[],
  label: string,
  list: ChangeList,
): SchedulerStep[] {
  const keyed = (prefix: string, item: { queueName: string; schedulerId: string }) =>
    `${keyOf(prefix, item.queueName)}\u0000${item.schedulerId}`;
  const existing = new Map(stored.schedulers.map((scheduler) => [keyed(scheduler.prefix!, scheduler), scheduler]));
  const queuesHere = new Set(stored.schedulers.map((scheduler) => keyOf(scheduler.prefix!, scheduler.queueName)));
  const steps: SchedulerStep[] = [];
  const names = definitions.map(
    (definition) =>
      `${placeIn(definition, prefixes, queuesHere, label)}:${definition.queueName}/${definition.schedulerId}`,
  );
  assertUnique(names, `under ${label} the job scheduler`);
  for (const definition of definitions) {
    const prefix = placeIn(definition, prefixes, queuesHere, label);
    const current = existing.get(keyed(prefix, definition));
    existing.delete(keyed(prefix, definition));
    const [stated, now] = [comparable(definition), current ? comparable(current) : undefined];
    const fields = now
      ? (['name', 'data', 'schedule', 'options'] as const).filter(
          (field) => canonical(stated[field]) !== canonical(now[field]),
        )
      : [];
    if (
      list.judge('scheduler', `${label}/${definition.queueName}/${definition.schedulerId}`, current !== undefined, [
        ...fields,
      ])
    )
      steps.push({ definition, prefix, mode: current ? 'update' : 'create' });
  }
  for (const scheduler of existing.values())
    list.add('scheduler', `${label}/${scheduler.queueName}/${scheduler.schedulerId}`, 'notInFile');
  return steps;
}

function planRules(
  definitions: AlertRuleDefinition[],
  saved: AlertRuleRow[],
  destinationNames: ReadonlyMap<string, string>,
  label: string,
  list: ChangeList,
): RuleStep[] {
  assertUnique(
    definitions.map((definition) => definition.name),
    `under ${label} the alert rule`,
  );
  const steps: RuleStep[] = [];
  for (const definition of definitions) {
    const matches = saved.filter((rule) => rule.name === definition.name);
    if (matches.length > 1) throw ambiguous(`alert rule of ${label}`, definition.name);
    const rule = matches[0];
    const fields = rule
      ? changedFields(definition, ruleDefinition(rule, destinationNames), [
          'type',
          'threshold',
          'windowMinutes',
          'minVolume',
          'queues',
          'destinations',
          'cooldownMinutes',
          'enabled',
        ])
      : [];
    if (list.judge('alertRule', `${label}/${definition.name}`, rule !== undefined, fields))
      steps.push({ definition, id: rule?.id });
  }
  for (const rule of saved)
    if (!definitions.some((definition) => definition.name === rule.name))
      list.add('alertRule', `${label}/${rule.name}`, 'notInFile');
  return steps;
}

/**
 * What is under a connection: queue settings and job schedulers against what its store holds (a
 * connection this import creates holds nothing yet), alert rules against the saved ones.
 */
export function planContents(
  connection: Omit<ConnectionStep, 'queues' | 'schedulers' | 'rules'>,
  stored: StoreDefinitions,
  rules: AlertRuleRow[],
  destinationNames: ReadonlyMap<string, string>,
  list: ChangeList,
): ConnectionStep {
  const definition: ConnectionDefinition = connection.definition;
  const { name, prefixes } = connection.resulting;
  return {
    ...connection,
    queues: planQueues(definition.queues, stored, prefixes, name, list),
    schedulers: planSchedulers(definition.schedulers, stored, prefixes, name, list),
    rules: planRules(definition.alertRules, rules, destinationNames, name, list),
  };
}
