import { changedPasswordSchema, changePasswordInputSchema } from '../../contracts/auth.js';
import { AppError } from '../../contracts/app-error.js';
import { changePassword } from './passwords.js';
import { recordAccountEvent } from './record-account-event.js';
import { rejectInAuthless } from '../../server/trpc/middleware/reject-in-authless.js';
import { persistedProcedure } from '../../server/trpc/procedures.js';

export const changePasswordProcedure = persistedProcedure
  .use(rejectInAuthless)
  .meta({
    strictLimit: 'credentials',
    sessionOnly: true,
    errors: {
      AUTHLESS_MODE: '',
      UNAUTHORIZED: 'Not signed in with a session (API tokens cannot change a password)',
      CURRENT_PASSWORD_INCORRECT: '',
    },
    bodyExample: { currentPassword: 'correct horse battery', newPassword: 'battery staple horse' },
    openapi: {
      method: 'POST',
      path: '/auth/change-password',
      tags: ['auth'],
      summary:
        'Change your password; your other sessions end (this one stays), and your API tokens too with revokeTokens',
    },
  })
  .input(changePasswordInputSchema)
  .output(changedPasswordSchema)
  .mutation(async ({ ctx, input }) => {
    const identity = await ctx.identify();
    if (identity?.kind !== 'user')
      throw new AppError('UNAUTHORIZED', 'Sign in to change your password (API tokens cannot)');
    const result = await changePassword({
      ...input,
      em: ctx.em,
      auth: ctx.services.auth,
      userId: identity.user.id,
      currentSessionId: identity.session.id,
    }).catch(async (error: unknown) => {
      await recordAccountEvent(ctx.services, {
        userId: identity.user.id,
        action: 'auth.change-password',
        outcome: 'denied',
        errorCode: (error as { code?: string }).code ?? null,
      });
      throw error;
    });
    await recordAccountEvent(ctx.services, {
      userId: identity.user.id,
      action: 'auth.change-password',
      outcome: 'success',
      parameters: { endedSessions: result.endedSessions, revokedTokens: result.revokedTokens },
    });
    return result;
  });
