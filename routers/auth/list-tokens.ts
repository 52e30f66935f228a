import { z } from 'zod';
import { tokenListSchema } from '../../contracts/auth.js';
import { listTokens } from '../../domain/auth/tokens.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const listApiTokens = accountProcedure
  .meta({
    permission: 'tokens.manage',
    openapi: {
      method: 'GET',
      path: '/auth/tokens',
      tags: ['auth'],
      summary: 'Your API tokens in the active organization (admins: all of them); never the token values',
      errorResponses: { 400: 'Authless mode', 401: 'Not signed in', 403: 'Called with a token' },
    },
  })
  .input(z.void())
  .output(tokenListSchema)
  .query(({ ctx }) => listTokens({ em: ctx.em, actor: ctx.actor }));
