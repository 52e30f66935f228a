import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { minAuthSecretLength, type Config } from '../config.js';
import type { Logger } from '../logger.js';
import { keptSecret } from './kept-secret.js';

export const embeddedAuthSecretFile = 'auth-secret';

/**
 * The AUTH_SECRET in force. Embedded mode without one (the README's
 * `npm install && npm start`): generated on first start and kept beside the
 * SQLite file, readable by the service's user only, so sessions and tokens
 * survive restarts. Server mode without one never gets here (config refuses it).
 */
export async function resolveAuthSecret(config: Config, logger: Logger): Promise<string> {
  if (config.auth.secret) return config.auth.secret;
  if (config.persistence.mode !== 'embedded') throw new Error('AUTH_SECRET is required in server mode');
  const file = path.join(config.persistence.directory, embeddedAuthSecretFile);
  try {
    return await loadOrCreateSecret(file);
  } catch (error) {
    // The data directory is unusable; persistence reports that on every route that needs it.
    logger.error({ err: error, file }, 'cannot keep the generated AUTH_SECRET; using a temporary one');
    return randomBytes(32).toString('hex');
  }
}

function loadOrCreateSecret(file: string): Promise<string> {
  return keptSecret(file, {
    generate: () => randomBytes(32).toString('hex'),
    parse: (text) => (text.trim().length >= minAuthSecretLength ? text.trim() : null),
    serialize: (secret) => secret,
    expected: `a secret of at least ${minAuthSecretLength} characters`,
  });
}
