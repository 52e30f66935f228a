import type { Session } from 'lucia';
import type { SessionInfo, TokenView, UserView } from '../../contracts/auth.js';
import type { ApiTokenRecord } from '../persistence/entities/api-token.js';
import type { UserRecord } from '../persistence/entities/user.js';

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

export function userView(user: UserRecord): UserView {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    createdAt: user.createdAt.toISOString(),
    lastSignInAt: iso(user.lastSignInAt),
  };
}

export function tokenView(token: ApiTokenRecord): TokenView {
  return {
    id: token.id,
    name: token.name,
    role: token.role,
    scope: token.scope,
    organizationId: token.organizationId,
    createdByUserId: token.createdByUserId,
    expiresAt: iso(token.expiresAt),
    lastUsedAt: iso(token.lastUsedAt),
    createdAt: token.createdAt.toISOString(),
  };
}

/** Emails are compared case-insensitively: stored lowercased. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** What clients see of a session: never its id, which lives in the cookie only. */
export function sessionView(session: Session): SessionInfo {
  return { expiresAt: session.expiresAt.toISOString(), activeOrganizationId: session.activeOrganizationId };
}
