import { AppError } from '../../contracts/app-error.js';
import type { AlertDestinationDefinition } from '../../contracts/definitions.js';
import type { AlertDestinationRow } from '../../server/persistence/entities/alerts.js';
import { redactUrlCredentials } from '../../server/secrets/redact-credentials.js';
import type { UrlCipher } from '../../server/secrets/url-cipher.js';
import { ambiguous } from './compare.js';
import { destinationDefinition } from './current-definitions.js';
import type { SecretBook } from './definition-secrets.js';
import type { ChangeList, DestinationStep } from './import-plan.js';

/** A webhook URL given as a secret: http(s), and the origin the document shows when it shows one. */
function checkTarget(definition: AlertDestinationDefinition, url: string): void {
  let protocol = '';
  try {
    protocol = new URL(url).protocol;
  } catch {
    // reported below
  }
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new AppError('VALIDATION_FAILED', `Secret "${definition.target.secret}" must be an http:// or https:// URL`, {
      field: 'secrets',
    });
  }
  if (definition.url !== undefined && redactUrlCredentials(url) !== definition.url) {
    throw new AppError(
      'VALIDATION_FAILED',
      `Secret "${definition.target.secret}" is a URL of another origin than the document's url ${definition.url}`,
      { field: 'secrets' },
    );
  }
}

/**
 * Destinations by name: created with the URL and signing secret the import is given (both needed),
 * changed when the type, the shown origin or a given secret differs from what is saved. A changed
 * origin needs the URL; a secret not given is kept as saved.
 */
export function planDestinations(
  definitions: AlertDestinationDefinition[],
  saved: AlertDestinationRow[],
  cipher: UrlCipher,
  book: SecretBook,
  list: ChangeList,
): DestinationStep[] {
  const steps: DestinationStep[] = [];
  for (const definition of definitions) {
    const matches = saved.filter((row) => row.name === definition.name);
    if (matches.length > 1) throw ambiguous('alert destination', definition.name);
    const row = matches[0];
    const open = (sealed: string, context: string) => cipher.decrypt(sealed, context);
    const givenUrl = book.peek(definition.target);
    if (givenUrl !== undefined) checkTarget(definition, givenUrl);
    if (!row) {
      const url = book.need(definition.target, `alert destination ${definition.name} (create)`);
      const secret = book.need(definition.signingSecret, `alert destination ${definition.name} (create)`);
      list.add('alertDestination', definition.name, 'create');
      steps.push({ definition, write: { type: definition.type, url, secret } });
      continue;
    }
    const shown = destinationDefinition(row, open);
    const urlChanged =
      (definition.url !== undefined && definition.url !== shown.url) ||
      (givenUrl !== undefined && givenUrl !== open(row.urlSealed, row.id));
    const givenSecret = book.peek(definition.signingSecret);
    const fields = [
      ...(definition.type !== row.type ? ['type'] : []),
      ...(urlChanged ? ['url'] : []),
      ...(givenSecret !== undefined && givenSecret !== open(row.secretSealed, `${row.id}:secret`)
        ? ['signingSecret']
        : []),
    ];
    if (!list.judge('alertDestination', definition.name, true, fields)) continue;
    const url = urlChanged ? book.need(definition.target, `alert destination ${definition.name} (new url)`) : undefined;
    steps.push({
      definition,
      id: row.id,
      write: {
        ...(fields.includes('type') ? { type: definition.type } : {}),
        url,
        ...(fields.includes('signingSecret') ? { secret: givenSecret } : {}),
      },
    });
  }
  for (const row of saved)
    if (!definitions.some((definition) => definition.name === row.name))
      list.add('alertDestination', row.name, 'notInFile');
  return steps;
}
