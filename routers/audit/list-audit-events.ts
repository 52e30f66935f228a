import { auditPageSchema, auditQuerySchema } from '../../contracts/audit.js';
import { queryAudit } from '../../domain/audit/query-audit.js';
import { authedPersistedProcedure } from '../../server/trpc/procedures.js';

export const listAuditEvents = authedPersistedProcedure
  .meta({
    permission: 'audit.read',
    openapi: {
      method: 'GET',
      path: '/audit',
      tags: ['audit'],
      summary: "The active organization's audit trail, newest first; admins and owners",
      errorResponses: { 400: 'Invalid filter or cursor', 401: 'Not signed in', 403: 'Below admin' },
    },
  })
  .input(auditQuerySchema)
  .output(auditPageSchema)
  .query(({ ctx, input }) => queryAudit({ ...input, em: ctx.em, organizationId: ctx.actor.organizationId }));
