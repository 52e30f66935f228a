import { AppError } from '../../contracts/app-error.js';
import type { AuthService } from '../../server/auth/auth-service.js';
import { endCredentials, type EndedCredentials } from './end-credentials.js';
import { hashPassword, verifyPassword } from '../../server/auth/password.js';
import { PasswordReset } from '../../server/persistence/entities/password-reset.js';
import { User } from '../../server/persistence/entities/user.js';
import { onlyWinner } from '../../server/persistence/only-winner.js';
import type { EntityManager } from '../../server/persistence/orm.js';

const invalidLink = () =>
  new AppError(
    'RESET_LINK_INVALID',
    'This password reset link is unknown, already used or expired (links last one hour); ask for a new one',
  );

/**
 * A new password for the signed-in user; every other session of theirs ends
 * (the current one stays), and with `revokeTokens` every API token they made.
 */
export async function changePassword(input: {
  em: EntityManager;
  auth: AuthService;
  userId: string;
  currentSessionId: string;
  currentPassword: string;
  newPassword: string;
  revokeTokens?: boolean | undefined;
}): Promise<{ success: true } & EndedCredentials> {
  const user = await input.em.findOneOrFail(User, { id: input.userId });
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw new AppError('CURRENT_PASSWORD_INCORRECT', 'currentPassword is not your current password');
  }
  const passwordHash = await hashPassword(input.newPassword);
  const ended = await input.em.transactional(async (tx) => {
    await tx.nativeUpdate(User, { id: user.id }, { passwordHash });
    return endCredentials(tx, user.id, {
      keepSessionIdHash: input.auth.hash(input.currentSessionId),
      revokeTokens: input.revokeTokens === true,
    });
  });
  return { success: true, ...ended };
}

/**
 * Uses a one-time reset link: sets the password, ends every session of that
 * user and revokes their API tokens (whoever asked for the reset lost the
 * password; what it let them make goes with it). The token is consumed by one
 * conditional update, so of any number of concurrent uses exactly one succeeds.
 */
export async function resetPassword(input: {
  em: EntityManager;
  auth: AuthService;
  token: string;
  newPassword: string;
}): Promise<{ userId: string } & EndedCredentials> {
  const reset = await input.em.findOne(PasswordReset, { tokenHash: input.auth.hash(input.token) });
  if (!reset || reset.usedAt || reset.expiresAt.getTime() <= Date.now()) throw invalidLink();
  // scrypt takes ~100 ms of CPU: before the transaction, which stays short.
  const passwordHash = await hashPassword(input.newPassword);
  return input.em.transactional(async (tx) => {
    const now = new Date();
    await onlyWinner(
      tx.nativeUpdate(PasswordReset, { id: reset.id, usedAt: null, expiresAt: { $gt: now } }, { usedAt: now }),
      invalidLink,
    );
    await tx.nativeUpdate(User, { id: reset.userId }, { passwordHash });
    return { userId: reset.userId, ...(await endCredentials(tx, reset.userId, { revokeTokens: true })) };
  });
}
