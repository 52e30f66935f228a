import { importDefinitionsInput, importDefinitionsResultSchema } from '../../contracts/definitions-import.js';
import type { DefinitionWriters } from './definition-writers.js';
import { authedPersistedProcedure } from '../../server/trpc/procedures.js';
import { importDefinitions } from './import-definitions.js';

export const importProcedureWith = (writers: DefinitionWriters) =>
  authedPersistedProcedure
    .meta({
      permission: 'definitions.write',
      differs: {
        create:
          'An import applies a document (creating, changing, leaving alone): it answers 200 with the diff, and the records keep their own addresses.',
      },
      errors: {
        SECRETS_MISSING: '',
        CONNECTION_PROTECTED:
          'A read-only connection (as it is, or as the document leaves it) would get queue settings or schedulers',
        CONFLICT: 'Two things here share a name the document uses; or a rule, scheduler or connection route refused',
        STORE_UNAVAILABLE:
          "A store could not be read or written (after a failed store write, Bullpen's records stay imported: import again)",
        CONNECTION_TARGET_FORBIDDEN: '',
        WEBHOOK_TARGET_FORBIDDEN: '',
        ENCRYPTION_KEY_MISSING: '',
      },
      bodyExample: { definitions: { bullpenDefinitions: 1, connections: [], alertDestinations: [] }, dryRun: true },
      openapi: {
        method: 'POST',
        path: '/definitions',
        tags: ['definitions'],
        summary:
          "Import a definitions document: the diff with `dryRun`, else apply it (Bullpen's records in one transaction), idempotently",
        description:
          "Items are matched by name (connections, destinations; rules per connection; queue settings by queue; schedulers by queue and id). What the document does not state is left as it is; what exists here and not in it is reported as `notInFile`, never removed. Secrets the changes need come in `secrets` by the names the document gives; missing ones are listed (`missingSecrets`) and a real import is then 400 SECRETS_MISSING with nothing changed. Each part needs its own route's role, and queue settings and schedulers the protection of their connection.",
      },
    })
    .input(importDefinitionsInput)
    .output(importDefinitionsResultSchema)
    .mutation(({ ctx, input }) =>
      importDefinitions(
        { services: ctx.services, em: ctx.em, organizationId: ctx.actor.organizationId, writers, actor: ctx.actor },
        input,
      ),
    );
