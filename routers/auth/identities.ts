import { LockMode } from '@mikro-orm/core';
import { AppError } from '../../contracts/app-error.js';
import type { LinkedIdentities, UnlinkedIdentity } from '../../contracts/identities.js';
import type { OAuthProviderId } from '../../server/auth/oauth/provider-settings.js';
import { ExternalIdentity } from '../../server/persistence/entities/external-identity.js';
import { User } from '../../server/persistence/entities/user.js';
import type { EntityManager } from '../../server/persistence/orm.js';

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

/** The signed-in user's linked provider accounts, and whether they have a password. */
export async function listIdentities(input: { em: EntityManager; userId: string }): Promise<LinkedIdentities> {
  const user = await input.em.findOneOrFail(User, { id: input.userId });
  const identities = await input.em.find(
    ExternalIdentity,
    { userId: input.userId },
    { orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  return {
    passwordSet: user.passwordHash !== '',
    identities: identities.map((identity) => ({
      provider: identity.provider as OAuthProviderId,
      email: identity.email ?? null,
      createdAt: identity.createdAt.toISOString(),
      lastSignInAt: iso(identity.lastSignInAt),
    })),
  };
}

/**
 * Unlinks the user's account of `provider`, unless that leaves them no way
 * to sign in (no password, no other provider): 409 LAST_SIGN_IN_METHOD. The
 * user's row is held (PostgreSQL `FOR UPDATE`; SQLite runs one transaction at
 * a time) so two unlinks at once, one per provider, cannot both pass.
 */
export async function unlinkIdentity(input: {
  em: EntityManager;
  userId: string;
  provider: OAuthProviderId;
}): Promise<Omit<UnlinkedIdentity, 'id'>> {
  const { userId, provider } = input;
  return input.em.transactional(async (tx) => {
    const postgres = tx.getPlatform().constructor.name === 'PostgreSqlPlatform';
    const user = await tx.findOneOrFail(User, { id: userId }, postgres ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
    const identities = await tx.find(ExternalIdentity, { userId });
    const unlinking = identities.filter((identity) => identity.provider === provider);
    if (unlinking.length === 0) throw new AppError('NOT_FOUND', `No ${provider} account is linked to you`);
    if (user.passwordHash === '' && unlinking.length === identities.length) {
      throw new AppError(
        'LAST_SIGN_IN_METHOD',
        `Unlinking ${provider} would leave your account no way to sign in: link another provider, or set a password with a reset link, first`,
      );
    }
    return { success: true, removed: await tx.nativeDelete(ExternalIdentity, { userId, provider }) };
  });
}
