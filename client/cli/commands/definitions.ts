import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { isBullpenError } from '../../errors.js';
import type { BullpenClient } from '../../index.js';
import { defineCommand } from '../command.js';
import { UsageError, type CliIo } from '../context.js';
import { formatTable, writeJson } from '../output.js';

type ImportInput = Parameters<BullpenClient['definitions']['import']['mutate']>[0];
type Reference = { secret: string; env?: string };
type Missing = { secret: string; env?: string; for: string };

async function readDocument(path: string, stdin: Readable): Promise<ImportInput['definitions']> {
  let text = '';
  if (path === '-') for await (const chunk of stdin) text += String(chunk);
  else
    text = await readFile(path, 'utf8').catch((error: Error) =>
      Promise.reject(new UsageError(`${path}: ${error.message}`)),
    );
  try {
    return JSON.parse(text) as ImportInput['definitions'];
  } catch (error) {
    throw new UsageError(`${path} does not hold JSON: ${(error as Error).message}`);
  }
}

/** Every secret reference of a document: connections' credentials, destinations' URLs and signing secrets. */
function referencesOf(document: ImportInput['definitions']): Reference[] {
  const connections = (document.connections ?? []).flatMap((connection) =>
    connection.credentials ? [connection.credentials] : [],
  );
  const destinations = (document.alertDestinations ?? []).flatMap((destination) => [
    destination.target,
    destination.signingSecret,
  ]);
  return [...connections, ...destinations].filter(
    (reference): reference is Reference => typeof reference?.secret === 'string',
  );
}

/** The secrets the document names, from the variables it names for them; the service never reads the environment for them. */
function secretsFromEnv(
  document: ImportInput['definitions'],
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  return Object.fromEntries(
    referencesOf(document).flatMap((reference) =>
      reference.env && env[reference.env] ? [[reference.secret, env[reference.env]!]] : [],
    ),
  );
}

const missingLine = (missing: Missing) =>
  `missing secret ${missing.secret}${missing.env ? ` (set ${missing.env})` : ''}: ${missing.for}\n`;

function writeDiff(
  io: CliIo,
  answer: Awaited<ReturnType<BullpenClient['definitions']['import']['mutate']>>,
  verbose: boolean,
): void {
  const shown = answer.changes.filter((change) => verbose || change.action !== 'unchanged');
  if (shown.length > 0)
    io.stdout.write(
      formatTable(
        ['action', 'kind', 'name', 'fields'],
        shown.map((change) => [change.action, change.kind, change.name, (change.fields ?? []).join(', ')]),
      ),
    );
  const { create, change, unchanged, notInFile } = answer.summary;
  const verb = answer.dryRun ? 'would create' : 'created';
  io.stdout.write(
    `${verb} ${create}, ${answer.dryRun ? 'change' : 'changed'} ${change}, unchanged ${unchanged}, not in the file ${notInFile} (left as they are)\n`,
  );
  for (const missing of answer.missingSecrets) io.stdout.write(missingLine(missing));
}

export const definitionsCommand = defineCommand({
  name: 'definitions',
  usage: 'export | import <file|-> [--dry-run] [--all]',
  summary:
    "Export the organization's definitions (connections, protection, queue settings, schedulers, alert rules and destinations) as JSON, or import such a file",
  options: { 'dry-run': { type: 'boolean', default: false }, all: { type: 'boolean', default: false } },
  flagHelp: {
    'dry-run': 'import: show what would be created or changed, and the secrets it needs, without changing anything',
    all: 'import: list unchanged items too',
  },
  examples: [
    'bullpen definitions export > defs.json',
    'bullpen definitions import defs.json --dry-run',
    'BULLPEN_SECRET_CONNECTIONS_PRIMARY_URL=redis://:pw@10.0.0.5:6379/0 bullpen definitions import defs.json',
  ],
  arity: [1, 2],
  async run({ client, config, io, env }, { positionals: [action, file], values }) {
    if (action === 'export') {
      if (file !== undefined || values['dry-run'] || values.all)
        throw new UsageError('usage: bullpen definitions export > defs.json');
      return void io.stdout.write(`${JSON.stringify(await client.definitions.export.query({}), null, 2)}\n`);
    }
    if (action !== 'import' || file === undefined)
      throw new UsageError(`usage: bullpen definitions ${definitionsCommand.usage}`);
    const definitions = await readDocument(file, io.stdin);
    const input = {
      definitions,
      secrets: secretsFromEnv(definitions, env),
      ...(values['dry-run'] ? { dryRun: true } : {}),
    };
    try {
      const answer = await client.definitions.import.mutate(input);
      if (config.json) return writeJson(io.stdout, answer);
      writeDiff(io, answer, values.all);
    } catch (error) {
      if (!isBullpenError(error) || error.code !== 'SECRETS_MISSING' || config.json) throw error;
      io.stderr.write(`error: ${error.message} (SECRETS_MISSING, HTTP 400)\n`);
      for (const missing of error.details.missingSecrets as Missing[]) io.stderr.write(missingLine(missing));
      return 1;
    }
  },
});
