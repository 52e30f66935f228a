import { randomBytes } from 'node:crypto';
import { Lucia, TimeSpan } from 'lucia';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Persistence } from '../persistence/persistence.js';
import { resolveAuthSecret } from '../secrets/auth-secret.js';
import { createLuciaAdapter } from './lucia-adapter.js';
import { hashPassword } from './password.js';
import { createSecretHasher, type SecretHasher } from './secret-hash.js';

export const sessionCookieName = 'bullpen_session';
export const sessionLifetimeDays = 30;

function createLucia(persistence: Persistence, hash: SecretHasher, appBaseUrl: string) {
  return new Lucia(createLuciaAdapter(persistence, hash), {
    // Sliding: lucia extends a session used in the second half of its life and marks it fresh.
    sessionExpiresIn: new TimeSpan(sessionLifetimeDays, 'd'),
    sessionCookie: {
      name: sessionCookieName,
      attributes: { secure: new URL(appBaseUrl).protocol === 'https:', sameSite: 'lax', path: '/' },
    },
    getSessionAttributes: (attributes) => ({ activeOrganizationId: attributes.activeOrganizationId }),
    getUserAttributes: (attributes) => ({ email: attributes.email, name: attributes.name }),
  });
}

declare module 'lucia' {
  interface Register {
    Lucia: ReturnType<typeof createLucia>;
    DatabaseSessionAttributes: { activeOrganizationId: string | null };
    DatabaseUserAttributes: { email: string; name: string };
  }
}

/** Sessions (lucia), credential hashing and the browser origin, built once at startup. */
export interface AuthService {
  lucia: ReturnType<typeof createLucia>;
  /** Hash under which session ids and API tokens are stored. */
  hash: SecretHasher;
  /** The origin of APP_BASE_URL, which cookie-authenticated mutations must come from. */
  appOrigin: string;
  /** Checked when no user matches an email, so "no such user" costs what "wrong password" costs. */
  decoyPasswordHash: string;
}

export async function createAuthService(config: Config, logger: Logger, persistence: Persistence): Promise<AuthService> {
  // Authless mode never issues sessions or tokens: no secret to keep.
  const secret = config.authless ? randomBytes(32).toString('hex') : await resolveAuthSecret(config, logger);
  const hash = createSecretHasher(secret);
  return {
    lucia: createLucia(persistence, hash, config.auth.appBaseUrl),
    hash,
    appOrigin: new URL(config.auth.appBaseUrl).origin,
    decoyPasswordHash: await hashPassword(randomBytes(16).toString('hex')),
  };
}
