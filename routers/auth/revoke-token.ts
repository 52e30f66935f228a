import { successSchema, tokenIdParams } from '../../contracts/auth.js';
import { revokeToken } from '../../domain/auth/tokens.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const revokeApiToken = accountProcedure
  .meta({
    permission: 'tokens.manage',
    openapi: {
      method: 'DELETE',
      path: '/auth/tokens/{id}',
      tags: ['auth'],
      summary: 'Revoke an API token',
      errorResponses: { 400: 'Authless mode', 401: 'Not signed in', 403: 'Another user’s token and you are not an admin', 404: 'No such token' },
    },
  })
  .input(tokenIdParams)
  .output(successSchema)
  .mutation(({ ctx, input }) => revokeToken({ em: ctx.em, actor: ctx.actor, id: input.id }));
