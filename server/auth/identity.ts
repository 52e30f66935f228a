import type { Request, Response } from 'express';
import type { Session } from 'lucia';
import { ApiToken, type ApiTokenRecord } from '../persistence/entities/api-token.js';
import type { Services } from '../services.js';
import type { AuthService } from './auth-service.js';

/** Who presented credentials, before any organization is chosen. */
export type Identity =
  | { kind: 'authless' }
  | { kind: 'user'; user: { id: string; email: string; name: string }; session: Session }
  | { kind: 'token'; token: ApiTokenRecord }
  /** In-process callers (createBullpen): a user named by id, optionally in one organization. */
  | { kind: 'in-process-user'; userId: string; organizationId: string | null }
  /** In-process tooling acting as the owner of the instance (local) organization. */
  | { kind: 'system' };

type IdentifyDeps = Pick<Services, 'config' | 'auth' | 'persistence'>;

/** `Authorization: Bearer <token>`: the token, or null when the header is absent or another scheme. */
export function bearerToken(req: Request | undefined): string | null {
  const header = req?.headers.authorization;
  return header ? (/^Bearer\s+(\S+)$/i.exec(header)?.[1] ?? null) : null;
}

export function sessionCookieValue(auth: AuthService, req: Request | undefined): string | null {
  const header = req?.headers.cookie;
  return header ? auth.lucia.readSessionCookie(header) : null;
}

/** Last-used stamps are written at most this often per token, not on every request. */
const lastUsedResolutionMs = 60_000;

export async function identifyToken(deps: IdentifyDeps, token: string): Promise<Identity | null> {
  const em = deps.persistence.fork();
  const record = await em.findOne(ApiToken, { tokenHash: deps.auth.hash(token) });
  const now = new Date();
  if (!record || (record.expiresAt && record.expiresAt <= now)) return null;
  if (!record.lastUsedAt || now.getTime() - record.lastUsedAt.getTime() > lastUsedResolutionMs) {
    await em.nativeUpdate(ApiToken, { id: record.id }, { lastUsedAt: now });
  }
  return { kind: 'token', token: record };
}

/**
 * A bearer token wins over a cookie. A session lucia refreshed gets a new
 * cookie; an invalid or expired one gets a blank cookie so the browser drops it.
 */
async function identifySession(
  deps: IdentifyDeps,
  sessionId: string,
  res: Response | undefined,
): Promise<Identity | null> {
  const { session, user } = await deps.auth.lucia.validateSession(sessionId);
  if (!session) {
    res?.append('Set-Cookie', deps.auth.lucia.createBlankSessionCookie().serialize());
    return null;
  }
  if (session.fresh) res?.append('Set-Cookie', deps.auth.lucia.createSessionCookie(session.id).serialize());
  return { kind: 'user', user: { id: user.id, email: user.email, name: user.name }, session };
}

export async function identifyRequest(
  deps: IdentifyDeps,
  req: Request | undefined,
  res: Response | undefined,
): Promise<Identity | null> {
  if (deps.config.authless) return { kind: 'authless' };
  const token = bearerToken(req);
  if (token) return identifyToken(deps, token);
  const sessionId = sessionCookieValue(deps.auth, req);
  return sessionId ? identifySession(deps, sessionId, res) : null;
}
