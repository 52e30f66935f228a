import { z } from 'zod';
import { AppError } from '../../contracts/app-error.js';
import { linkedIdentitiesSchema } from '../../contracts/identities.js';
import { rejectInAuthless } from '../../server/trpc/middleware/reject-in-authless.js';
import { persistedProcedure } from '../../server/trpc/procedures.js';
import { listIdentities } from './identities.js';

export const listIdentitiesProcedure = persistedProcedure
  .use(rejectInAuthless)
  .meta({
    sessionOnly: true,
    errors: { AUTHLESS_MODE: '', UNAUTHORIZED: 'Not signed in with a session (API tokens cannot see linked accounts)' },
    openapi: {
      method: 'GET',
      path: '/auth/identities',
      tags: ['auth'],
      summary: 'Your linked identity provider accounts (link with GET /api/auth/link/{provider})',
    },
  })
  .input(z.void())
  .output(linkedIdentitiesSchema)
  .query(async ({ ctx }) => {
    const identity = await ctx.identify();
    if (identity?.kind !== 'user')
      throw new AppError('UNAUTHORIZED', 'Sign in to see your linked accounts (API tokens cannot)');
    return listIdentities({ em: ctx.em, userId: identity.user.id });
  });
