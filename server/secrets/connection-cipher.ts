import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { loadOrCreateEmbeddedKey } from './encryption-key.js';
import { aesGcmUrlCipher, missingKeyCipher, type UrlCipher } from './url-cipher.js';

/**
 * The cipher for saved connection URLs: SERVICE_ENCRYPTION_KEY when set; in
 * embedded mode a key generated once in the data directory; in server mode
 * none, so saving fails with a message naming the variable.
 */
export async function connectionUrlCipher(config: Config, logger: Logger): Promise<UrlCipher> {
  if (config.encryptionKey) return aesGcmUrlCipher(config.encryptionKey);
  if (config.persistence.mode === 'server') {
    logger.warn('SERVICE_ENCRYPTION_KEY is not set: saving connections will fail until it is');
    return missingKeyCipher;
  }
  try {
    return aesGcmUrlCipher(await loadOrCreateEmbeddedKey(config.persistence.directory));
  } catch (error) {
    logger.error(
      { reason: (error as NodeJS.ErrnoException).code ?? (error as Error).message },
      'cannot read or create the embedded encryption key',
    );
    return missingKeyCipher;
  }
}
