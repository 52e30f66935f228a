import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AppError } from '../../contracts/app-error.js';

/**
 * Encrypts connection URLs at rest (AES-256-GCM). The record id is bound in
 * as associated data, so a ciphertext copied onto another row does not open.
 */
export interface UrlCipher {
  readonly available: boolean;
  encrypt(plaintext: string, recordId: string): string;
  decrypt(sealed: string, recordId: string): string;
}

const version = 'v1';
const ivBytes = 12;

export function aesGcmUrlCipher(key: Buffer): UrlCipher {
  return {
    available: true,
    encrypt(plaintext, recordId) {
      const iv = randomBytes(ivBytes);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(recordId));
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [version, iv, cipher.getAuthTag(), data]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64')))
        .join('.');
    },
    decrypt(sealed, recordId) {
      const [tag, iv, authTag, data] = sealed.split('.');
      if (tag !== version || !iv || !authTag || data === undefined) throw undecryptable(recordId);
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64')).setAAD(Buffer.from(recordId));
        decipher.setAuthTag(Buffer.from(authTag, 'base64'));
        return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
      } catch {
        throw undecryptable(recordId);
      }
    },
  };
}

function undecryptable(recordId: string): AppError {
  return new AppError(
    'ENCRYPTION_KEY_MISMATCH',
    `The URL of connection ${recordId} cannot be decrypted: SERVICE_ENCRYPTION_KEY differs from the key it was saved with`,
    { connectionId: recordId },
  );
}

/** Server mode without SERVICE_ENCRYPTION_KEY: nothing can be saved or read back. */
export const missingKeyCipher: UrlCipher = {
  available: false,
  encrypt() {
    throw missingKey();
  },
  decrypt() {
    throw missingKey();
  },
};

function missingKey(): AppError {
  return new AppError(
    'ENCRYPTION_KEY_MISSING',
    'Saved connections need SERVICE_ENCRYPTION_KEY (32 bytes, hex or base64) to encrypt their URLs; the server has none configured',
  );
}
