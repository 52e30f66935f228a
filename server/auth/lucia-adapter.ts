import type { Adapter, DatabaseSession, DatabaseUser } from 'lucia';
import { Session, type SessionRecord } from '../persistence/entities/session.js';
import { User, type UserRecord } from '../persistence/entities/user.js';
import type { Persistence } from '../persistence/persistence.js';
import type { SecretHasher } from './secret-hash.js';

/**
 * Lucia's storage, over MikroORM. Lucia hands us session ids as they are; we
 * keep only their hash (`idHash`), so every lookup hashes the id first. One
 * consequence: sessions listed by user carry the hash, not an id that works
 * in a cookie (Bullpen never lists them).
 */
export function createLuciaAdapter(persistence: Persistence, hash: SecretHasher): Adapter {
  const toDatabaseSession = (row: SessionRecord, id: string): DatabaseSession => ({
    id,
    userId: row.userId,
    expiresAt: row.expiresAt,
    attributes: { activeOrganizationId: row.activeOrganizationId ?? null },
  });
  const toDatabaseUser = (row: UserRecord): DatabaseUser => ({
    id: row.id,
    attributes: { email: row.email, name: row.name },
  });

  return {
    async getSessionAndUser(sessionId) {
      const em = persistence.fork();
      const session = await em.findOne(Session, { idHash: hash(sessionId) });
      if (!session) return [null, null];
      const user = await em.findOne(User, { id: session.userId });
      return [toDatabaseSession(session, sessionId), user ? toDatabaseUser(user) : null];
    },
    async getUserSessions(userId) {
      const rows = await persistence.fork().find(Session, { userId });
      return rows.map((row) => toDatabaseSession(row, row.idHash));
    },
    async setSession(session) {
      const em = persistence.fork();
      em.create(Session, {
        idHash: hash(session.id),
        userId: session.userId,
        expiresAt: session.expiresAt,
        activeOrganizationId: session.attributes.activeOrganizationId ?? null,
        createdAt: new Date(),
      });
      await em.flush();
    },
    async updateSessionExpiration(sessionId, expiresAt) {
      await persistence.fork().nativeUpdate(Session, { idHash: hash(sessionId) }, { expiresAt });
    },
    async deleteSession(sessionId) {
      await persistence.fork().nativeDelete(Session, { idHash: hash(sessionId) });
    },
    async deleteUserSessions(userId) {
      await persistence.fork().nativeDelete(Session, { userId });
    },
    async deleteExpiredSessions() {
      await persistence.fork().nativeDelete(Session, { expiresAt: { $lte: new Date() } });
    },
  };
}
