import { createTokenInputSchema, createdTokenSchema } from '../../contracts/auth.js';
import { createToken } from '../../domain/auth/tokens.js';
import { accountProcedure } from '../../server/trpc/procedures.js';

export const createApiToken = accountProcedure
  .meta({
    permission: 'tokens.manage',
    openapi: {
      method: 'POST',
      path: '/auth/tokens',
      tags: ['auth'],
      summary: 'Create an API token in the active organization (shown once)',
      errorResponses: { 400: 'Invalid input or authless mode', 401: 'Not signed in', 403: 'Role above yours, or called with a token' },
    },
  })
  .input(createTokenInputSchema)
  .output(createdTokenSchema)
  .mutation(({ ctx, input }) => createToken({ ...input, em: ctx.em, hash: ctx.services.auth.hash, actor: ctx.actor }));
