import { z } from 'zod';
import { successSchema } from '../../contracts/auth.js';
import { clearSessionCookie } from './session-cookie.js';
import { publicProcedure } from '../../server/trpc/procedures.js';

/** Ends the session of the cookie, if any, and clears the cookie. Authless mode: nothing to end, 200. */
export const signOutProcedure = publicProcedure
  .meta({
    openapi: {
      operationId: 'auth-signOut',
      method: 'POST',
      path: '/auth/sign-out',
      tags: ['auth'],
      summary: 'End the session and clear its cookie',
    },
  })
  .input(z.void())
  .output(successSchema)
  .mutation(async ({ ctx }) => {
    if (ctx.services.config.authless) return { success: true as const };
    const identity = await ctx.identify();
    if (identity?.kind === 'user') await ctx.services.auth.lucia.invalidateSession(identity.session.id);
    clearSessionCookie(ctx);
    return { success: true as const };
  });
