import { z } from 'zod';
import { tokenListSchema } from '../../contracts/auth.js';
import { listTokens } from './tokens.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const listTokensProcedure = accountProcedure
  .meta({
    permission: 'tokens.manage',
    errors: { AUTHLESS_MODE: '', FORBIDDEN: 'Called with a token' },
    sessionOnly: true,
    openapi: {
      method: 'GET',
      path: '/auth/tokens',
      tags: ['auth'],
      summary: 'Your API tokens in the active organization (admins: all of them); never the token values',
    },
  })
  .input(z.void())
  .output(tokenListSchema)
  .query(({ ctx }) => listTokens({ em: ctx.em, actor: ctx.actor }));
