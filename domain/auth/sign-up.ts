import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Session } from 'lucia';
import type { SignUpInput, UserView } from '../../contracts/auth.js';
import type { AuthService } from '../../server/auth/auth-service.js';
import { hashPassword } from '../../server/auth/password.js';
import { User } from '../../server/persistence/entities/user.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import { AppError } from '../errors.js';
import { addOrganization } from '../organizations/create-organization.js';
import { normalizeEmail, userView } from './views.js';

const duplicate = () => new AppError('CONFLICT', 'An account with this email already exists');

/** Creates the user, their personal organization (they own it) and a session in it. */
export async function signUp(input: SignUpInput & { em: EntityManager; auth: AuthService }): Promise<{ user: UserView; session: Session }> {
  const { em } = input;
  const email = normalizeEmail(input.email);
  if (await em.count(User, { email })) throw duplicate();
  const now = new Date();
  const user = em.create(User, { id: randomUUID(), email, name: input.name, passwordHash: await hashPassword(input.password), createdAt: now, lastSignInAt: now });
  const organization = addOrganization(em, { name: `${input.name}'s organization`, ownerUserId: user.id });
  try {
    await em.flush();
  } catch (error) {
    // Two sign-ups with one email at once: the unique index decides.
    if (error instanceof UniqueConstraintViolationException) throw duplicate();
    throw error;
  }
  const session = await input.auth.lucia.createSession(user.id, { activeOrganizationId: organization.id });
  return { user: userView(user), session };
}
