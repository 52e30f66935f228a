import { AppError } from '../../contracts/app-error.js';
import type { AuthService } from '../../server/auth/auth-service.js';
import { hashPassword, verifyPassword } from '../../server/auth/password.js';
import { PasswordReset } from '../../server/persistence/entities/password-reset.js';
import { Session } from '../../server/persistence/entities/session.js';
import { User } from '../../server/persistence/entities/user.js';
import type { EntityManager } from '../../server/persistence/orm.js';

/** A new password for the signed-in user; every other session of theirs ends (the current one stays). */
export async function changePassword(input: {
  em: EntityManager;
  auth: AuthService;
  userId: string;
  currentSessionId: string;
  currentPassword: string;
  newPassword: string;
}): Promise<{ success: true; endedSessions: number }> {
  const user = await input.em.findOneOrFail(User, { id: input.userId });
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw new AppError('CURRENT_PASSWORD_INCORRECT', 'currentPassword is not your current password');
  }
  user.passwordHash = await hashPassword(input.newPassword);
  await input.em.flush();
  // Sessions are stored by the keyed hash of their id (see lucia-adapter.ts).
  const endedSessions = await input.em.nativeDelete(Session, { userId: user.id, idHash: { $ne: input.auth.hash(input.currentSessionId) } });
  return { success: true, endedSessions };
}

/** Uses a one-time reset link: sets the password and ends every session of that user. */
export async function resetPassword(input: { em: EntityManager; auth: AuthService; token: string; newPassword: string }): Promise<{ userId: string }> {
  const { em } = input;
  const reset = await em.findOne(PasswordReset, { tokenHash: input.auth.hash(input.token) });
  if (!reset || reset.usedAt || reset.expiresAt.getTime() <= Date.now()) {
    throw new AppError('RESET_LINK_INVALID', 'This password reset link is unknown, already used or expired (links last one hour); ask for a new one');
  }
  const user = await em.findOneOrFail(User, { id: reset.userId });
  user.passwordHash = await hashPassword(input.newPassword);
  reset.usedAt = new Date();
  await em.flush();
  await input.auth.lucia.invalidateUserSessions(user.id);
  return { userId: user.id };
}
