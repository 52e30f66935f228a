import { z } from 'zod';
import { oauthProvidersSchema } from '../../contracts/auth.js';
import { rejectInAuthless } from '../../server/trpc/middleware/reject-in-authless.js';
import { publicProcedure } from '../../server/trpc/procedures.js';

export const providersProcedure = publicProcedure
  .use(rejectInAuthless)
  .meta({
    errors: { AUTHLESS_MODE: '' },
    openapi: {
      method: 'GET',
      path: '/auth/providers',
      tags: ['auth'],
      summary: 'The identity providers this service signs in with, besides email and password',
      description:
        'Start a sign-in with `GET /api/auth/sign-in/{id}?redirectTo=/path` (a browser navigation, not fetch).',
    },
  })
  .input(z.void())
  .output(oauthProvidersSchema)
  .query(({ ctx }) => ({
    providers: ctx.services.config.auth.oauthProviders.map(({ id, name, type }) => ({ id, name, type })),
    emailPassword: true as const,
  }));
