import type { AuthService } from './auth/auth-service.js';
import { prepareSetupToken } from './auth/setup-token.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import type { Persistence } from './persistence/persistence.js';
import { resealWithCurrentKey } from './secrets/reseal-secrets.js';
import { aesGcmUrlCipher, type UrlCipher } from './secrets/url-cipher.js';

/**
 * Work done once the database is open, before the first request: the setup
 * token of an unclaimed instance, and key rotation. A database that is not
 * reachable yet skips them (logged); persistence reports that on every route.
 */
export async function startupChores(deps: {
  config: Config;
  logger: Logger;
  persistence: Persistence;
  auth: AuthService;
  secretCipher: UrlCipher;
}): Promise<void> {
  const { config, logger } = deps;
  try {
    await prepareSetupToken({ config, logger, persistence: deps.persistence, hash: deps.auth.hash });
    if (config.previousEncryptionKey && deps.secretCipher.available) {
      await resealWithCurrentKey({
        persistence: deps.persistence,
        logger,
        current: deps.secretCipher,
        previous: aesGcmUrlCipher(config.previousEncryptionKey),
      });
    }
  } catch (error) {
    logger.error(
      { err: error },
      'startup chores (setup token, key rotation) did not run: the database is not usable yet',
    );
  }
}
