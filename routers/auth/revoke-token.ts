import { tokenIdParams } from '../../contracts/auth.js';
import { deletedAnswer, deletedSchema } from '../../contracts/deleted.js';
import { revokeToken } from './tokens.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const revokeTokenProcedure = accountProcedure
  .meta({
    permission: 'tokens.manage',
    errors: {
      AUTHLESS_MODE: '',
      FORBIDDEN: 'Called with a token, or another user’s token and you are not an admin',
      NOT_FOUND: 'No such token',
    },
    sessionOnly: true,
    openapi: {
      method: 'DELETE',
      path: '/auth/tokens/{id}',
      tags: ['auth'],
      summary: 'Revoke an API token',
    },
  })
  .input(tokenIdParams)
  .output(deletedSchema)
  .mutation(async ({ ctx, input }) =>
    deletedAnswer(input.id, await revokeToken({ em: ctx.em, actor: ctx.actor, id: input.id })),
  );
