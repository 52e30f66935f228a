import { z } from 'zod';
import { currentSessionSchema } from '../../contracts/auth.js';
import { currentSession } from './current-session.js';
import { persistedProcedure } from '../../server/trpc/procedures.js';

export const getSessionProcedure = persistedProcedure
  .meta({
    openapi: {
      operationId: 'auth-getSession',
      method: 'GET',
      path: '/auth/get-session',
      tags: ['auth'],
      summary: 'The signed-in user and session, or null',
      description: 'Authless mode: the synthetic owner session. A bearer token answers null: it is not a session.',
    },
  })
  .input(z.void())
  .output(currentSessionSchema)
  .query(async ({ ctx }) => currentSession({ em: ctx.em, identity: await ctx.identify() }));
