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

function createLucia(persistence: Persistence, hash: SecretHasher, appBaseUrl: string | null) {
  return new Lucia(createLuciaAdapter(persistence, hash), {
    // Sliding: lucia extends a session used in the second half of its life and marks it fresh.
    sessionExpiresIn: new TimeSpan(sessionLifetimeDays, 'd'),
    sessionCookie: {
      name: sessionCookieName,
      // The default base URL (unset APP_BASE_URL) is plain http on localhost.
      attributes: {
        secure: appBaseUrl !== null && new URL(appBaseUrl).protocol === 'https:',
        sameSite: 'lax',
        path: '/',
      },
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
  /** APP_BASE_URL, else http://localhost:{port}: the port actually bound once `useBoundPort` was called. */
  readonly appBaseUrl: string;
  /** The origin of appBaseUrl, which cookie-authenticated mutations must come from. */
  readonly appOrigin: string;
  /** Called once listening: without APP_BASE_URL the base URL names the bound port (PORT=0 included). */
  useBoundPort(port: number): void;
  /** Checked when no user matches an email or the user has no password, so those cost what "wrong password" costs. */
  decoyPasswordHash: string;
}

export async function createAuthService(
  config: Config,
  logger: Logger,
  persistence: Persistence,
): Promise<AuthService> {
  // Authless mode never issues sessions or tokens: no secret to keep.
  const secret = config.authless ? randomBytes(32).toString('hex') : await resolveAuthSecret(config, logger);
  const hash = createSecretHasher(secret);
  let appBaseUrl = config.auth.appBaseUrl ?? `http://localhost:${config.http.port}`;
  return {
    lucia: createLucia(persistence, hash, config.auth.appBaseUrl),
    hash,
    get appBaseUrl() {
      return appBaseUrl;
    },
    get appOrigin() {
      return new URL(appBaseUrl).origin;
    },
    useBoundPort(port) {
      if (config.auth.appBaseUrl === null) appBaseUrl = `http://localhost:${port}`;
    },
    decoyPasswordHash: await hashPassword(randomBytes(16).toString('hex')),
  };
}
