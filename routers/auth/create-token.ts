import { createTokenInputSchema, createdTokenSchema } from '../../contracts/auth.js';
import { createToken } from './tokens.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const createTokenProcedure = accountProcedure
  .meta({
    permission: 'tokens.manage',
    successStatus: 201,
    location: '/auth/tokens/{id}',
    errors: { AUTHLESS_MODE: '', FORBIDDEN: 'Called with a token, or a role above yours' },
    sessionOnly: true,
    bodyExample: { name: 'ci-deploy', role: 'viewer', scope: 'full' },
    openapi: {
      method: 'POST',
      path: '/auth/tokens',
      tags: ['auth'],
      summary: 'Create an API token in the active organization (shown once)',
    },
  })
  .input(createTokenInputSchema)
  .output(createdTokenSchema)
  .mutation(({ ctx, input }) => createToken({ ...input, em: ctx.em, hash: ctx.services.auth.hash, actor: ctx.actor }));
