import type { CurrentSession } from '../../contracts/auth.js';
import { authlessUser } from '../../server/auth/actor.js';
import type { Identity } from '../../server/auth/identity.js';
import { User } from '../../server/persistence/entities/user.js';
import { ensureLocalOrganization } from '../../server/persistence/local-organization.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import { sessionView, userView } from '../../server/auth/views.js';

/** Authless: the local owner, a session that never expires. Bearer tokens and in-process callers are not sessions: null. */
export async function currentSession(input: { em: EntityManager; identity: Identity | null }): Promise<CurrentSession> {
  const { em, identity } = input;
  if (!identity || identity.kind === 'token' || identity.kind === 'system' || identity.kind === 'in-process-user')
    return null;
  if (identity.kind === 'authless') {
    const organization = await ensureLocalOrganization(em);
    return {
      user: { ...authlessUser, createdAt: organization.createdAt.toISOString(), lastSignInAt: null },
      session: { expiresAt: null, activeOrganizationId: organization.id },
    };
  }
  const user = await em.findOne(User, { id: identity.user.id });
  return user ? { user: userView(user), session: sessionView(identity.session) } : null;
}
