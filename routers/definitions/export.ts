import { z } from 'zod';
import { definitionsDocument } from '../../contracts/definitions.js';
import type { DefinitionWriters } from './definition-writers.js';
import { authedPersistedProcedure } from '../../server/trpc/procedures.js';
import { exportDefinitions } from './current-definitions.js';

export const exportProcedureWith = (writers: DefinitionWriters) =>
  authedPersistedProcedure
    .meta({
      permission: 'definitions.read',
      errors: { CONFLICT: 'A store holds more than 10,000 schedulers or queues with settings' },
      openapi: {
        method: 'GET',
        path: '/definitions',
        tags: ['definitions'],
        summary:
          "The organization's definitions as one versioned document: connections, protection, queue settings, job schedulers, alert rules and destinations (no secret)",
        description:
          "URLs are given without credentials; a URL that has some, and each destination's URL and signing secret, is named as a secret (`{ secret, env }`) whose value the import takes in `secrets`. Reads every store of the organization's connections; one that does not answer is named in `warnings` and its queue settings and schedulers are left out.",
      },
    })
    .input(z.strictObject({}))
    .output(definitionsDocument)
    .query(({ ctx }) =>
      exportDefinitions({ services: ctx.services, em: ctx.em, organizationId: ctx.actor.organizationId, writers }),
    );
