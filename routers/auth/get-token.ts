import { tokenIdParams, tokenSchema } from '../../contracts/auth.js';
import { getToken } from './tokens.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const getTokenProcedure = accountProcedure
  .meta({
    permission: 'tokens.manage',
    errors: {
      AUTHLESS_MODE: '',
      FORBIDDEN: 'Called with a token',
      NOT_FOUND: 'No such token of yours (admins: of the organization)',
    },
    sessionOnly: true,
    openapi: {
      method: 'GET',
      path: '/auth/tokens/{id}',
      tags: ['auth'],
      summary: 'One of your API tokens (admins: any of the organization); never its value',
    },
  })
  .input(tokenIdParams)
  .output(tokenSchema)
  .query(({ ctx, input }) => getToken({ em: ctx.em, actor: ctx.actor, id: input.id }));
