import { signInInputSchema, signedInSchema } from '../../contracts/auth.js';
import { signIn } from './sign-in.js';
import { limitFailedSignIns } from './account-sign-in-limit.js';
import { sessionView } from '../../server/auth/views.js';
import { writeSessionCookie } from './session-cookie.js';
import { sessionCookieValue } from '../../server/auth/identity.js';
import { rejectInAuthless } from '../../server/trpc/middleware/reject-in-authless.js';
import { persistedProcedure } from '../../server/trpc/procedures.js';

export const signInEmailProcedure = persistedProcedure
  .use(rejectInAuthless)
  .meta({
    strictLimit: 'credentials',
    errors: { AUTHLESS_MODE: '', UNAUTHORIZED: 'Invalid email or password' },
    bodyExample: { email: 'ada@example.com', password: 'correct horse battery' },
    openapi: {
      operationId: 'auth-signInEmail',
      method: 'POST',
      path: '/auth/sign-in/email',
      tags: ['auth'],
      summary: 'Sign in with email and password; sets the session cookie',
    },
  })
  .input(signInInputSchema)
  .output(signedInSchema)
  .mutation(async ({ ctx, input }) => {
    const { user, session } = await limitFailedSignIns(ctx.services.rateLimits, input.email, () =>
      signIn({ ...input, em: ctx.em, auth: ctx.services.auth }),
    );
    // A new session id every sign-in; one the request carried (perhaps planted: session fixation) ends.
    const presented = sessionCookieValue(ctx.services.auth, ctx.req);
    if (presented) await ctx.services.auth.lucia.invalidateSession(presented);
    writeSessionCookie(ctx, session);
    return { user, session: sessionView(session) };
  });
