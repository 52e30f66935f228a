import { signUpInputSchema, signedInSchema } from '../../contracts/auth.js';
import { signUp } from './sign-up.js';
import { recordAccountEvent } from './record-account-event.js';
import { sessionView } from '../../server/auth/views.js';
import { writeSessionCookie } from './session-cookie.js';
import { rejectInAuthless } from '../../server/trpc/middleware/reject-in-authless.js';
import { persistedProcedure } from '../../server/trpc/procedures.js';

export const signUpEmailProcedure = persistedProcedure
  .use(rejectInAuthless)
  .meta({
    strictLimit: 'credentials',
    errors: {
      AUTHLESS_MODE: '',
      CONFLICT:
        'Email already registered (only where sign-up is open to the caller: a closed or invitation-only door answers SIGNUP_CLOSED for every email)',
      SIGNUP_CLOSED: '',
      SETUP_TOKEN_REQUIRED: '',
      INVITATION_EMAIL_MISMATCH: 'The `invitationToken` was sent to another email than `email`',
      INVITATION_NOT_FOUND: 'The `invitationToken` is unknown or revoked',
      INVITATION_EXPIRED: '',
      INVITATION_USED: '',
    },
    bodyExample: { email: 'ada@example.com', password: 'correct horse battery', name: 'Ada' },
    openapi: {
      operationId: 'auth-signUpEmail',
      method: 'POST',
      path: '/auth/sign-up/email',
      tags: ['auth'],
      summary: 'Create an account and sign in, as SERVICE_SIGNUP allows (invite by default: needs invitationToken)',
      description:
        'The first account owns the instance organization (on a non-loopback listener it needs the setupToken printed at first start). ' +
        'Afterwards: SERVICE_SIGNUP=invite needs an invitationToken, open gives everyone a personal organization, closed refuses.',
    },
  })
  .input(signUpInputSchema)
  .output(signedInSchema)
  .mutation(async ({ ctx, input }) => {
    const { user, session, admission } = await signUp({ ...input, em: ctx.em, services: ctx.services });
    await recordAccountEvent(ctx.services, {
      userId: user.id,
      action: 'auth.sign-up',
      outcome: 'success',
      parameters: { via: admission.via, role: admission.role },
    });
    writeSessionCookie(ctx, session);
    return { user, session: sessionView(session) };
  });
