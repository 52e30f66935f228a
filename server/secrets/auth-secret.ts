import { randomBytes } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { minAuthSecretLength, type Config } from '../config.js';
import type { Logger } from '../logger.js';

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

async function loadOrCreateSecret(file: string): Promise<string> {
  try {
    const stored = (await readFile(file, 'utf8')).trim();
    if (stored.length < minAuthSecretLength) throw new Error(`${file} holds fewer than ${minAuthSecretLength} characters`);
    return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32).toString('hex');
  // 'wx' fails rather than overwrite a secret another process wrote meanwhile.
  await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  await chmod(file, 0o600);
  return secret;
}
