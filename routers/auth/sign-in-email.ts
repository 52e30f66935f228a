import { signInInputSchema, signedInSchema } from '../../contracts/auth.js';
import { signIn } from '../../domain/auth/sign-in.js';
import { sessionView } from '../../domain/auth/views.js';
import { writeSessionCookie } from '../../server/auth/session-cookie.js';
import { rejectInAuthless } from '../../server/trpc/middleware/reject-in-authless.js';
import { persistedProcedure } from '../../server/trpc/procedures.js';

export const signInEmail = persistedProcedure
  .use(rejectInAuthless)
  .meta({
    strictLimit: 'credentials',
    openapi: {
      method: 'POST',
      path: '/auth/sign-in/email',
      tags: ['auth'],
      summary: 'Sign in with email and password; sets the session cookie',
      errorResponses: { 400: 'Invalid input or authless mode', 401: 'Invalid email or password', 429: 'Rate limited' },
    },
  })
  .input(signInInputSchema)
  .output(signedInSchema)
  .mutation(async ({ ctx, input }) => {
    const { user, session } = await signIn({ ...input, em: ctx.em, auth: ctx.services.auth });
    writeSessionCookie(ctx, session);
    return { user, session: sessionView(session) };
  });
