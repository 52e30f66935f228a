import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Session } from 'lucia';
import type { SignUpInput, UserView } from '../../contracts/auth.js';
import { admitNewUser, refuseClosedSignUp, type Admission } from './admit-new-user.js';
import { hashPassword } from '../../server/auth/password.js';
import { User } from '../../server/persistence/entities/user.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import type { Services } from '../../server/services.js';
import { AppError } from '../../contracts/app-error.js';
import { normalizeEmail, userView } from '../../server/auth/views.js';

type SignUpRequest = SignUpInput & { em: EntityManager; services: Pick<Services, 'auth' | 'config' | 'persistence'> };
type SignedUp = { user: UserView; session: Session; admission: Admission };

const duplicate = () => new AppError('CONFLICT', 'An account with this email already exists');

/**
 * Creates the user where the sign-up policy admits them (admitNewUser: the
 * instance organization, an invitation's, or a personal one) and a session
 * there. A unique-key violation is a race: the same email twice (409), or two
 * first sign-ups at once, where the loser is decided again as a later sign-up.
 */
export async function signUp(input: SignUpRequest): Promise<SignedUp> {
  const email = normalizeEmail(input.email);
  // Before the email is looked up: closed sign-up answers every email alike (no 409 telling which exist).
  await refuseClosedSignUp(input.em, input.services.config, input.invitationToken);
  for (let attempt = 0; ; attempt++) {
    if (await input.em.count(User, { email })) throw duplicate();
    try {
      return await createAdmittedUser(input, email);
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException) || attempt > 0)
        throw error instanceof UniqueConstraintViolationException ? duplicate() : error;
      input.em.clear();
    }
  }
}

async function createAdmittedUser(input: SignUpRequest, email: string): Promise<SignedUp> {
  const { em, services } = input;
  const newUser = { id: randomUUID(), email, name: input.name };
  const admission = await admitNewUser({
    em,
    config: services.config,
    hash: services.auth.hash,
    instanceOrganizationId: services.persistence.localOrganizationId(),
    user: newUser,
    invitationToken: input.invitationToken,
    setupToken: input.setupToken,
  });
  const now = new Date();
  const user = em.create(User, {
    ...newUser,
    passwordHash: await hashPassword(input.password),
    createdAt: now,
    lastSignInAt: now,
  });
  await em.flush();
  const session = await services.auth.lucia.createSession(user.id, { activeOrganizationId: admission.organizationId });
  return { user: userView(user), session, admission };
}
