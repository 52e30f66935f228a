import {
  definitionsVersion,
  type AlertDestinationDefinition,
  type AlertRuleDefinition,
  type ConnectionDefinition,
  type DefinitionsDocument,
} from '../../contracts/definitions.js';
import type { DefinitionWriters } from './definition-writers.js';
import {
  AlertDestination,
  AlertRule,
  type AlertDestinationRow,
  type AlertRuleRow,
} from '../../server/persistence/entities/alerts.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import { redactUrlCredentials } from '../../server/secrets/redact-credentials.js';
import type { Services } from '../../server/services.js';
import type { StoreConnection } from '../../server/stores/store-connection.js';
import { hasCredentials, secretReferenceFor, withoutCredentials } from './definition-secrets.js';
import { readStoreDefinitions, type StoreDefinitions } from './store-definitions.js';
import { isStoreUnavailable, storeUnavailable } from '../../server/stores/store-errors.js';

/** What the organization has now, as the database holds it: its connections, destinations and alert rules. */
export interface CurrentDefinitions {
  connections: StoreConnection[];
  destinations: AlertDestinationRow[];
  rules: AlertRuleRow[];
}

export async function readCurrent(
  services: Services,
  em: EntityManager,
  organizationId: string,
): Promise<CurrentDefinitions> {
  const [connections, destinations, rules] = await Promise.all([
    services.connections.list(organizationId),
    em.find(AlertDestination, { organizationId }, { orderBy: { name: 'asc', id: 'asc' } }),
    em.find(AlertRule, { organizationId }, { orderBy: { name: 'asc', id: 'asc' } }),
  ]);
  return { connections, destinations, rules };
}

export type ConnectionSettingsDefinition = Omit<ConnectionDefinition, 'queues' | 'schedulers' | 'alertRules'>;

/** A connection's own settings as a document states them: its URL without credentials, the whole URL a named secret. */
export function connectionSettingsDefinition(connection: StoreConnection): ConnectionSettingsDefinition {
  return {
    name: connection.name,
    source: connection.source,
    url: withoutCredentials(connection.url),
    credentials: hasCredentials(connection.url) ? secretReferenceFor(`connections.${connection.name}.url`) : null,
    environment: connection.environment,
    prefixes: connection.prefixes,
    isDefault: connection.isDefault,
    tls: connection.tls,
    cluster: connection.cluster,
    protection: connection.protection,
  };
}

/** A rule as a document states it: its destinations by name (snoozes are moments, not definitions). */
export function ruleDefinition(
  rule: AlertRuleRow,
  destinationNames: ReadonlyMap<string, string>,
): Required<Omit<AlertRuleDefinition, 'minVolume'>> & Pick<AlertRuleDefinition, 'minVolume'> {
  return {
    name: rule.name,
    type: rule.type,
    threshold: rule.threshold,
    windowMinutes: rule.windowMinutes,
    minVolume: rule.minVolume ?? null,
    queues: rule.queues,
    destinations: rule.destinationIds.flatMap((id) => (destinationNames.has(id) ? [destinationNames.get(id)!] : [])),
    cooldownMinutes: rule.cooldownMinutes,
    enabled: rule.enabled,
  };
}

/** A destination as a document states it: its origin shown, its URL and signing secret named. */
export function destinationDefinition(
  row: AlertDestinationRow,
  open: (sealed: string, context: string) => string,
): AlertDestinationDefinition {
  let url = '(sealed)';
  try {
    url = redactUrlCredentials(open(row.urlSealed, row.id));
  } catch {
    // A key that cannot open it: the export still names it.
  }
  return {
    name: row.name,
    type: row.type as AlertDestinationDefinition['type'],
    url,
    target: secretReferenceFor(`alertDestinations.${row.name}.url`),
    signingSecret: secretReferenceFor(`alertDestinations.${row.name}.signingSecret`),
  };
}

/**
 * The organization's definitions as one document: every connection it sees with its queue settings,
 * job schedulers (read from its store) and alert rules, and its alert destinations. No secret is in
 * it: credentials-bearing URLs and destinations' URLs and signing secrets are named. A store that
 * cannot be read leaves its connection's queue settings and schedulers out and says so in
 * `warnings` (an import never removes what a document lacks, so the gap costs nothing there).
 */
export async function exportDefinitions(deps: {
  services: Services;
  em: EntityManager;
  organizationId: string;
  writers: Pick<DefinitionWriters, 'toScheduler'>;
}): Promise<DefinitionsDocument> {
  const { services } = deps;
  const current = await readCurrent(services, deps.em, deps.organizationId);
  const destinationNames = new Map(current.destinations.map((row) => [row.id, row.name]));
  const connections: ConnectionDefinition[] = [];
  const warnings: string[] = [];
  for (const connection of current.connections) {
    let stored: StoreDefinitions = { queues: [], schedulers: [] };
    try {
      stored = await readStoreDefinitions(services.stores.handle(connection), deps.writers.toScheduler);
    } catch (error) {
      if (!isStoreUnavailable(error)) throw error;
      warnings.push(
        `${storeUnavailable(connection, error).message}: its queue settings and job schedulers are not in this document`,
      );
    }
    const rules = current.rules
      .filter((rule) => rule.connectionId === connection.id)
      .map((rule) => ruleDefinition(rule, destinationNames));
    connections.push({
      ...connectionSettingsDefinition(connection),
      queues: stored.queues,
      schedulers: stored.schedulers,
      alertRules: rules,
    });
  }
  return {
    bullpenDefinitions: definitionsVersion,
    exportedAt: new Date().toISOString(),
    connections,
    alertDestinations: current.destinations.map((row) =>
      destinationDefinition(row, (sealed, context) => services.secretCipher.decrypt(sealed, context)),
    ),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}
