import type { Identity } from '../../server/auth/identity.js';
import type { Logger } from '../../server/logger.js';
import { User } from '../../server/persistence/entities/user.js';
import type { EntityManager } from '../../server/persistence/orm.js';

/**
 * Spec rule: a signed-in user fetching the runtime config gets `lastSignInAt`
 * updated first. It must never make that route fail, so errors are logged only.
 */
export async function recordSignInActivity(input: {
  em: EntityManager;
  identify: () => Promise<Identity | null>;
  logger: Logger;
}): Promise<void> {
  try {
    const identity = await input.identify();
    if (identity?.kind === 'user')
      await input.em.nativeUpdate(User, { id: identity.user.id }, { lastSignInAt: new Date() });
  } catch (error) {
    input.logger.warn({ err: error }, 'could not update lastSignInAt');
  }
}
