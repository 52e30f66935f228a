import { z } from 'zod';
import { definitionsDocument } from './definitions.js';
import { strictBoolean } from './strict-boolean.js';

export const definitionKinds = ['connection', 'queueSettings', 'scheduler', 'alertRule', 'alertDestination'] as const;
export type DefinitionKind = (typeof definitionKinds)[number];
export const definitionActions = ['create', 'change', 'unchanged', 'notInFile'] as const;
export type DefinitionAction = (typeof definitionActions)[number];

export const importDefinitionsInput = z.strictObject({
  definitions: definitionsDocument.describe('A document as `GET /api/definitions` answers it.'),
  secrets: z
    .record(z.string().min(1).max(300), z.string().min(1).max(4000))
    .optional()
    .describe(
      'Values of the secrets the document names (`credentials`, `target`, `signingSecret`), by name. Never stored in the audit trail, logged or answered.',
    ),
  dryRun: strictBoolean().optional().describe('`true`: answer the diff and the secrets it would need, change nothing.'),
});
export type ImportDefinitionsInput = z.infer<typeof importDefinitionsInput>;

export const definitionChangeSchema = z.object({
  kind: z.enum(definitionKinds),
  name: z
    .string()
    .describe(
      "`connection`, `connection/queue`, `connection/queue/schedulerId`, `connection/rule` or the destination's name.",
    ),
  action: z
    .enum(definitionActions)
    .describe('`notInFile`: exists here, absent from the document; an import leaves it as it is.'),
  fields: z.array(z.string()).optional().describe('For `change`: the fields that differ.'),
});
export type DefinitionChange = z.infer<typeof definitionChangeSchema>;

export const missingSecretSchema = z.object({
  secret: z.string().describe('The name to give its value under in `secrets`.'),
  env: z.string().optional().describe('The environment variable the document names for it.'),
  for: z.string().describe('What needs it, e.g. `connection primary (create)`.'),
});

export const importDefinitionsResultSchema = z
  .object({
    dryRun: z.boolean(),
    applied: z
      .boolean()
      .describe('Whether this call changed anything (never on a dry run; false when everything was unchanged).'),
    changes: z
      .array(definitionChangeSchema)
      .describe('Every item of the document, and what exists here but not in it.'),
    summary: z.object({
      create: z.number().int(),
      change: z.number().int(),
      unchanged: z.number().int(),
      notInFile: z.number().int(),
    }),
    missingSecrets: z
      .array(missingSecretSchema)
      .describe('Secrets the import needs and was not given (a real import is then refused with 400 SECRETS_MISSING).'),
  })
  .meta({ id: 'DefinitionsImport' });
export type ImportDefinitionsResult = z.infer<typeof importDefinitionsResultSchema>;
