import type { Session } from 'lucia';
import type { SignInInput, UserView } from '../../contracts/auth.js';
import type { AuthService } from '../../server/auth/auth-service.js';
import { verifyPassword } from '../../server/auth/password.js';
import { User } from '../../server/persistence/entities/user.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import { AppError } from '../../contracts/app-error.js';
import { normalizeEmail, userView } from '../../server/auth/views.js';

/**
 * One answer for "no such user" and "wrong password", and the same work for
 * both (a decoy hash is checked when the user does not exist).
 */
export async function signIn(input: SignInInput & { em: EntityManager; auth: AuthService }): Promise<{ user: UserView; session: Session }> {
  const { em } = input;
  const user = await em.findOne(User, { email: normalizeEmail(input.email) });
  const valid = await verifyPassword(user?.passwordHash ?? input.auth.decoyPasswordHash, input.password);
  if (!user || !valid) throw new AppError('UNAUTHORIZED', 'Invalid email or password');
  user.lastSignInAt = new Date();
  await em.flush();
  const session = await input.auth.lucia.createSession(user.id, { activeOrganizationId: null });
  return { user: userView(user), session };
}
