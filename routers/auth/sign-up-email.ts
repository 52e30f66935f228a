import { signUpInputSchema, signedInSchema } from '../../contracts/auth.js';
import { signUp } from '../../domain/auth/sign-up.js';
import { sessionView } from '../../domain/auth/views.js';
import { writeSessionCookie } from '../../server/auth/session-cookie.js';
import { rejectInAuthless } from '../../server/trpc/middleware/reject-in-authless.js';
import { persistedProcedure } from '../../server/trpc/procedures.js';

export const signUpEmail = persistedProcedure
  .use(rejectInAuthless)
  .meta({
    strictLimit: 'credentials',
    openapi: {
      method: 'POST',
      path: '/auth/sign-up/email',
      tags: ['auth'],
      summary: 'Create an account (and its personal organization) and sign in',
      errorResponses: { 400: 'Invalid input (password under 10 characters) or authless mode', 409: 'Email already registered', 429: 'Rate limited' },
    },
  })
  .input(signUpInputSchema)
  .output(signedInSchema)
  .mutation(async ({ ctx, input }) => {
    const { user, session } = await signUp({ ...input, em: ctx.em, auth: ctx.services.auth });
    writeSessionCookie(ctx, session);
    return { user, session: sessionView(session) };
  });
