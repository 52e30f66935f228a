import { resetPasswordInputSchema, successSchema } from '../../contracts/auth.js';
import { resetPassword } from './passwords.js';
import { recordAccountEvent } from './record-account-event.js';
import { rejectInAuthless } from '../../server/trpc/middleware/reject-in-authless.js';
import { persistedProcedure } from '../../server/trpc/procedures.js';

export const resetPasswordProcedure = persistedProcedure
  .use(rejectInAuthless)
  .meta({
    strictLimit: 'credentials',
    errors: { AUTHLESS_MODE: '', RESET_LINK_INVALID: '' },
    bodyExample: { token: 'the token of the reset link', newPassword: 'battery staple horse' },
    openapi: {
      method: 'POST',
      path: '/auth/reset-password',
      tags: ['auth'],
      summary:
        'Set a new password with a one-time reset link; every session of that user ends and their API tokens are revoked',
    },
  })
  .input(resetPasswordInputSchema)
  .output(successSchema)
  .mutation(async ({ ctx, input }) => {
    const { userId, endedSessions, revokedTokens } = await resetPassword({
      ...input,
      em: ctx.em,
      auth: ctx.services.auth,
    });
    await recordAccountEvent(ctx.services, {
      userId,
      action: 'auth.reset-password',
      outcome: 'success',
      parameters: { endedSessions, revokedTokens },
    });
    return { success: true as const };
  });
