import { AppError } from '../../contracts/app-error.js';
import { deletedAnswer } from '../../contracts/deleted.js';
import { identityProviderParams, unlinkedIdentitySchema } from '../../contracts/identities.js';
import { recordAccountEvent } from './record-account-event.js';
import { rejectInAuthless } from '../../server/trpc/middleware/reject-in-authless.js';
import { persistedProcedure } from '../../server/trpc/procedures.js';
import { unlinkIdentity } from './identities.js';

const action = 'auth.identity.unlink';

/** Only the user unlinks their own accounts: the path names no user, the session does. */
export const unlinkIdentityProcedure = persistedProcedure
  .use(rejectInAuthless)
  .meta({
    sessionOnly: true,
    errors: {
      AUTHLESS_MODE: '',
      UNAUTHORIZED: 'Not signed in with a session (API tokens cannot unlink)',
      NOT_FOUND: 'No account of that provider is linked to you',
      LAST_SIGN_IN_METHOD: '',
    },
    openapi: {
      method: 'DELETE',
      path: '/auth/identities/{provider}',
      tags: ['auth'],
      summary: 'Unlink your account of an identity provider; refused when it is your only way to sign in',
    },
  })
  .input(identityProviderParams)
  .output(unlinkedIdentitySchema)
  .mutation(async ({ ctx, input }) => {
    const identity = await ctx.identify();
    if (identity?.kind !== 'user')
      throw new AppError('UNAUTHORIZED', 'Sign in to unlink an account (API tokens cannot)');
    const userId = identity.user.id;
    const result = await unlinkIdentity({ em: ctx.em, userId, provider: input.provider }).catch(
      async (error: unknown) => {
        await recordAccountEvent(ctx.services, {
          userId,
          action,
          outcome: 'denied',
          errorCode: (error as { code?: string }).code ?? null,
          parameters: { provider: input.provider },
        });
        throw error;
      },
    );
    await recordAccountEvent(ctx.services, {
      userId,
      action,
      outcome: 'success',
      parameters: { provider: input.provider, removed: result.removed },
    });
    return deletedAnswer(input.provider, result);
  });
