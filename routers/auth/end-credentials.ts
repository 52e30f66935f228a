import { ApiToken } from '../../server/persistence/entities/api-token.js';
import { Session } from '../../server/persistence/entities/session.js';
import type { EntityManager } from '../../server/persistence/orm.js';

export interface EndedCredentials {
  endedSessions: number;
  revokedTokens: number;
}

/**
 * What a new password takes away, in the caller's transaction: the user's
 * sessions (all, or all but the one that asked: stored by the keyed hash of
 * their id, see lucia-adapter.ts) and, when asked, every API token they
 * created, in every organization.
 */
export async function endCredentials(
  tx: EntityManager,
  userId: string,
  options: { keepSessionIdHash?: string; revokeTokens: boolean },
): Promise<EndedCredentials> {
  const keep = options.keepSessionIdHash === undefined ? {} : { idHash: { $ne: options.keepSessionIdHash } };
  const endedSessions = await tx.nativeDelete(Session, { userId, ...keep });
  const revokedTokens = options.revokeTokens ? await tx.nativeDelete(ApiToken, { createdByUserId: userId }) : 0;
  return { endedSessions, revokedTokens };
}
