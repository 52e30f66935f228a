import { AppError } from '../../contracts/app-error.js';
import type { DefinitionsDocument } from '../../contracts/definitions.js';
import type { DefinitionWriters } from './definition-writers.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import type { Services } from '../../server/services.js';
import type { StoreConnection } from '../../server/stores/store-connection.js';
import { isStoreUnavailable, storeUnavailable } from '../../server/stores/store-errors.js';
import { assertUnique } from './compare.js';
import { readCurrent } from './current-definitions.js';
import { SecretBook } from './definition-secrets.js';
import { ChangeList, type ConnectionStep, type DestinationStep } from './import-plan.js';
import { planConnection } from './plan-connections.js';
import { planContents } from './plan-contents.js';
import { planDestinations } from './plan-destinations.js';
import { readStoreDefinitions, type StoreDefinitions } from './store-definitions.js';

export interface ImportPlan {
  destinations: DestinationStep[];
  connections: ConnectionStep[];
  list: ChangeList;
  book: SecretBook;
}

export interface PlanDeps {
  services: Services;
  em: EntityManager;
  organizationId: string;
  writers: DefinitionWriters;
}

/** A store's failure as the API says it: 503 naming the connection. */
export async function onStore<T>(connection: StoreConnection, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw isStoreUnavailable(error) ? storeUnavailable(connection, error) : error;
  }
}

const nothingStored: StoreDefinitions = { queues: [], schedulers: [] };

/**
 * What a connection's store holds of definitions. A document that states queue settings or schedulers
 * for it needs it read (503 otherwise); one that does not only misses its `notInFile` entries.
 */
async function readStored(deps: PlanDeps, connection: StoreConnection, needed: boolean): Promise<StoreDefinitions> {
  const read = () => readStoreDefinitions(deps.services.stores.handle(connection), deps.writers.toScheduler);
  if (needed) return onStore(connection, read);
  return read().catch((error: unknown) => {
    if (isStoreUnavailable(error)) return nothingStored;
    throw error;
  });
}

/** Every alert destination a rule names must be in the document or saved here (400 naming it otherwise). */
function assertDestinationsKnown(document: DefinitionsDocument, saved: string[]): void {
  const known = new Set([...saved, ...document.alertDestinations.map((destination) => destination.name)]);
  for (const connection of document.connections) {
    for (const rule of connection.alertRules) {
      const unknown = rule.destinations.filter((name) => !known.has(name));
      if (unknown.length > 0)
        throw new AppError(
          'VALIDATION_FAILED',
          `Alert rule "${rule.name}" of connection "${connection.name}" names unknown alert destination(s): ${unknown.join(', ')}`,
          { field: 'definitions' },
        );
    }
  }
}

/** Schedules checked as the scheduler routes check them, before anything is written (400 naming the scheduler). */
async function checkSchedules(connections: ConnectionStep[], writers: DefinitionWriters): Promise<void> {
  for (const step of connections) {
    for (const { definition } of step.schedulers) {
      try {
        await writers.checkSchedule(definition.schedule);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        throw new AppError(
          error.code,
          `Job scheduler ${step.resulting.name}/${definition.queueName}/${definition.schedulerId}: ${error.message}`,
          { field: 'definitions' },
        );
      }
    }
  }
}

/**
 * The document against what the organization has: each item created, changed (with the fields that
 * differ) or unchanged, and what exists here but is not in the document (left as it is). Reads the
 * store of every connection the document names that exists, for its queue settings and schedulers.
 * Secrets the steps need and were not given are noted in `book.missing`.
 */
export async function planImport(
  deps: PlanDeps,
  document: DefinitionsDocument,
  secrets: Record<string, string>,
): Promise<ImportPlan> {
  const { services, writers } = deps;
  assertUnique(
    document.connections.map((connection) => connection.name),
    'the connection',
  );
  assertUnique(
    document.alertDestinations.map((destination) => destination.name),
    'the alert destination',
  );
  if (document.connections.filter((connection) => connection.isDefault === true).length > 1) {
    throw new AppError(
      'VALIDATION_FAILED',
      'The document makes more than one connection the default (isDefault: true); an organization has one',
      { field: 'definitions' },
    );
  }
  const current = await readCurrent(services, deps.em, deps.organizationId);
  assertDestinationsKnown(
    document,
    current.destinations.map((row) => row.name),
  );
  const book = new SecretBook(secrets);
  const list = new ChangeList();
  const destinations = planDestinations(
    document.alertDestinations,
    current.destinations,
    services.secretCipher,
    book,
    list,
  );
  const destinationNames = new Map(current.destinations.map((row) => [row.id, row.name]));
  const connections: ConnectionStep[] = [];
  for (const definition of document.connections) {
    const existing = current.connections.find((connection) => connection.name === definition.name);
    if (!existing && services.connections.source === 'env') {
      throw new AppError(
        'VALIDATION_FAILED',
        `Connection "${definition.name}" is not one of the environment's (SERVICE_ENV_CONNECTIONS): they cannot be created`,
        { field: 'definitions' },
      );
    }
    const step = planConnection(definition, existing, book, list);
    const stored = existing
      ? await readStored(deps, existing, definition.queues.length + definition.schedulers.length > 0)
      : nothingStored;
    const rules = existing ? current.rules.filter((rule) => rule.connectionId === existing.id) : [];
    connections.push(planContents(step, stored, rules, destinationNames, list));
  }
  for (const connection of current.connections) {
    if (!document.connections.some((definition) => definition.name === connection.name))
      list.add('connection', connection.name, 'notInFile');
  }
  await checkSchedules(connections, writers);
  return { destinations, connections, list, book };
}
