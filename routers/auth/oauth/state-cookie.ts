import { timingSafeEqual } from 'node:crypto';
import type { AuthorizationChecks } from '../../../server/auth/oauth/oauth-provider.js';
import type { SecretHasher } from '../../../server/auth/secret-hash.js';

export const stateCookieName = 'bullpen_oauth';
/** Only the callback reads it. */
export const stateCookiePath = '/api/auth/callback';
/** Long enough to sign in at the provider, short enough that a stolen one soon expires. */
export const stateLifetimeSeconds = 600;

/** What one sign-in attempt remembers between the redirect to the provider and its callback. */
export interface SignInAttempt extends AuthorizationChecks {
  provider: string;
  redirectTo: string;
  expiresAt: number;
  /** A link attempt (GET /auth/link/{provider}): the signed-in user who started it, the only one who may finish it. */
  linkUserId?: string;
}

/**
 * The attempt travels in an HttpOnly cookie, signed with AUTH_SECRET: the
 * browser that started the sign-in is the only one that can finish it, and
 * nothing is kept server-side for abandoned attempts.
 */
export function sealAttempt(hash: SecretHasher, attempt: SignInAttempt): string {
  const payload = Buffer.from(JSON.stringify(attempt)).toString('base64url');
  return `${payload}.${hash(`oauth-state:${payload}`)}`;
}

/** The attempt, or null when the cookie is missing, forged, tampered with or expired. */
export function openAttempt(hash: SecretHasher, sealed: string | undefined, now = Date.now()): SignInAttempt | null {
  const [payload, signature] = sealed?.split('.') ?? [];
  if (!payload || !signature) return null;
  const expected = Buffer.from(hash(`oauth-state:${payload}`));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const attempt = JSON.parse(Buffer.from(payload, 'base64url').toString()) as SignInAttempt;
  return attempt.expiresAt > now ? attempt : null;
}

export function stateCookie(value: string, secure: boolean, maxAgeSeconds = stateLifetimeSeconds): string {
  return [
    `${stateCookieName}=${value}`,
    `Path=${stateCookiePath}`,
    `Max-Age=${maxAgeSeconds}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

export function readStateCookie(header: string | undefined): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const [name, ...value] = part.trim().split('=');
    if (name === stateCookieName) return value.join('=');
  }
  return undefined;
}
