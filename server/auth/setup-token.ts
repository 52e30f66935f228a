import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { InstanceSetting } from '../persistence/entities/instance-setting.js';
import type { Persistence } from '../persistence/persistence.js';
import { keptSecret } from '../secrets/kept-secret.js';
import { instanceClaimed } from './instance-claim.js';
import { isLoopbackHost } from './loopback.js';
import type { SecretHasher } from './secret-hash.js';

export const setupTokenFile = 'setup-token';
export const setupTokenHashKey = 'setup-token-hash';

/** Whether the first sign-up must present the setup token: authenticated and reachable from elsewhere. */
export function setupTokenRequired(config: Pick<Config, 'authless' | 'http'>): boolean {
  return !config.authless && !isLoopbackHost(config.http.host);
}

/**
 * At startup, while nobody has claimed the instance and it listens beyond
 * loopback: the one-time token the first sign-up must present (as Jenkins
 * does), printed to the log. Embedded mode keeps it in a 0600 file in the
 * data directory (same token across restarts); server mode stores only its
 * hash, so each start before the first sign-up prints a fresh one.
 */
export async function prepareSetupToken(deps: {
  config: Config;
  logger: Logger;
  persistence: Persistence;
  hash: SecretHasher;
}): Promise<string | null> {
  const { config, logger } = deps;
  if (!setupTokenRequired(config)) return null;
  const file = config.persistence.mode === 'embedded' ? path.join(config.persistence.directory, setupTokenFile) : null;
  const em = deps.persistence.fork();
  if (await instanceClaimed(em)) {
    if (file) await rm(file, { force: true });
    return null;
  }
  const token = file
    ? await keptSecret(file, {
        generate: () => randomBytes(24).toString('base64url'),
        parse: (text) => text.trim() || null,
        serialize: (value) => value,
        expected: 'a setup token',
      })
    : randomBytes(24).toString('base64url');
  await em.nativeDelete(InstanceSetting, { key: setupTokenHashKey });
  await em.insert(InstanceSetting, { key: setupTokenHashKey, value: deps.hash(token), createdAt: new Date() });
  logger.warn(
    { setupTokenFile: file },
    `No account exists yet. The first sign-up on this instance needs this one-time setup token: ${token} (send it as "setupToken" in POST /api/auth/sign-up/email)`,
  );
  return token;
}
