import type { z } from 'zod';
import { AppError } from '../../contracts/app-error.js';
import {
  createConnectionInput,
  updateConnectionInput,
  type CreateConnectionInput,
  type UpdateConnectionInput,
} from '../../contracts/connections.js';
import type { ConnectionDefinition } from '../../contracts/definitions.js';
import type { StoreConnection } from '../../server/stores/store-connection.js';
import { changedFields } from './compare.js';
import { connectionSettingsDefinition, type ConnectionSettingsDefinition } from './current-definitions.js';
import { assertSecretMatchesUrl, hasCredentials, withoutCredentials, type SecretBook } from './definition-secrets.js';
import type { ChangeList, ConnectionStep } from './import-plan.js';

const settingFields = [
  'url',
  'environment',
  'prefixes',
  'isDefault',
  'tls',
  'cluster',
  'protection',
] as const satisfies ReadonlyArray<keyof ConnectionSettingsDefinition>;

/** An input checked by the route's own contract: a document item is refused as the route would refuse it, naming the item. */
function checked<T>(schema: z.ZodType<T>, input: unknown, where: string): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new AppError('VALIDATION_FAILED', `${where}: ${issue.path.join('.') || 'input'}: ${issue.message}`, {
    field: 'definitions',
  });
}

/** The URL to save: the secret the document names (the whole URL) when it names one, else its credential-free `url`. */
function urlToSave(definition: ConnectionDefinition, book: SecretBook, purpose: string): string | undefined {
  if (!definition.credentials) return definition.url;
  const value = book.need(definition.credentials, purpose);
  if (value !== undefined) assertSecretMatchesUrl(definition.credentials, value, definition.url!);
  return value;
}

/** The document's own settings of a connection, as the create and update routes take them. */
const settingsInput = (definition: ConnectionDefinition, fields: readonly string[]) =>
  Object.fromEntries(
    (['environment', 'prefixes', 'isDefault', 'tls', 'cluster', 'protection'] as const)
      .filter((field) => fields.includes(field) && definition[field] !== undefined)
      .map((field) => [field, definition[field]]),
  );

/**
 * A connection of the document against the one of that name here: created (its `url` needed), changed
 * in the fields the document states that differ (a new URL, or credentials given that differ, take
 * the secret), or left alone. An environment connection's settings are the environment's: only what
 * is under it is planned.
 */
export function planConnection(
  definition: ConnectionDefinition,
  current: StoreConnection | undefined,
  book: SecretBook,
  list: ChangeList,
): Omit<ConnectionStep, 'queues' | 'schedulers' | 'rules'> {
  const where = `connection "${definition.name}"`;
  if (definition.url !== undefined && hasCredentials(definition.url)) {
    throw new AppError(
      'VALIDATION_FAILED',
      `${where}: url carries credentials; state it without them and name the whole URL in credentials`,
      { field: 'definitions' },
    );
  }
  if (current?.source === 'env')
    return {
      definition,
      current,
      resulting: { name: current.name, protection: current.protection, prefixes: current.prefixes, source: 'env' },
    };
  if (!current) {
    if (definition.url === undefined)
      throw new AppError('VALIDATION_FAILED', `${where}: url is needed to create it`, { field: 'definitions' });
    const url = urlToSave(definition, book, `connection ${definition.name} (create)`);
    list.add('connection', definition.name, 'create');
    const input = { name: definition.name, url: url ?? definition.url, ...settingsInput(definition, settingFields) };
    const create: CreateConnectionInput = checked(createConnectionInput, input, where);
    return {
      definition,
      create,
      resulting: {
        name: definition.name,
        protection: definition.protection ?? 'none',
        prefixes: definition.prefixes ?? ['bull'],
        source: 'saved',
      },
    };
  }
  const stated = { ...definition, url: definition.url === undefined ? undefined : withoutCredentials(definition.url) };
  const fields = changedFields<ConnectionSettingsDefinition>(
    stated,
    connectionSettingsDefinition(current),
    settingFields,
  );
  const given = book.peek(definition.credentials);
  if (given !== undefined) assertSecretMatchesUrl(definition.credentials!, given, definition.url ?? current.url);
  if (given !== undefined && given !== current.url && !fields.includes('url')) fields.push('credentials');
  const resulting = {
    name: current.name,
    protection: definition.protection ?? current.protection,
    prefixes: definition.prefixes ?? current.prefixes,
    source: 'saved' as const,
  };
  if (!list.judge('connection', definition.name, true, fields)) return { definition, current, resulting };
  const url = fields.includes('url')
    ? urlToSave(definition, book, `connection ${definition.name} (new url)`)
    : fields.includes('credentials')
      ? given
      : undefined;
  const update: UpdateConnectionInput = checked(
    updateConnectionInput,
    { id: current.id, ...settingsInput(definition, fields), ...(url !== undefined ? { url } : {}) },
    where,
  );
  return { definition, current, update, resulting };
}
