import type { Session } from 'lucia';
import type { SignInInput, UserView } from '../../contracts/auth.js';
import type { AuthService } from '../../server/auth/auth-service.js';
import { verifyPassword } from '../../server/auth/password.js';
import { User } from '../../server/persistence/entities/user.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import { AppError } from '../../contracts/app-error.js';
import { normalizeEmail, userView } from '../../server/auth/views.js';

/**
 * One answer for "no such user", "no password (signs in with a provider
 * only)" and "wrong password", and the same work for all three: a decoy hash
 * is checked when there is no password hash to check, so the timing tells
 * nothing either.
 */
export async function signIn(
  input: SignInInput & { em: EntityManager; auth: AuthService },
): Promise<{ user: UserView; session: Session }> {
  const { em } = input;
  const user = await em.findOne(User, { email: normalizeEmail(input.email) });
  const stored = user?.passwordHash || null;
  const valid = await verifyPassword(stored ?? input.auth.decoyPasswordHash, input.password);
  if (!user || !stored || !valid) throw new AppError('UNAUTHORIZED', 'Invalid email or password');
  user.lastSignInAt = new Date();
  await em.flush();
  const session = await input.auth.lucia.createSession(user.id, { activeOrganizationId: null });
  return { user: userView(user), session };
}
