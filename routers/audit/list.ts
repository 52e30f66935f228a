import { auditPageSchema, auditQuerySchema } from '../../contracts/audit.js';
import { queryAudit } from './query-audit.js';
import { authedPersistedProcedure } from '../../server/trpc/procedures.js';

export const listProcedure = authedPersistedProcedure
  .meta({
    permission: 'audit.read',
    openapi: {
      method: 'GET',
      path: '/audit',
      tags: ['audit'],
      summary: "The active organization's audit trail, newest first; admins and owners",
    },
  })
  .input(auditQuerySchema)
  .output(auditPageSchema)
  .query(({ ctx, input }) => queryAudit({ ...input, em: ctx.em, organizationId: ctx.actor.organizationId }));
