import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { keptSecret } from './kept-secret.js';

export const encryptionKeyBytes = 32;
export const embeddedKeyFile = 'encryption.key';

/** A 32-byte key written as 64 hex digits or as base64; null when the text is neither. */
export function parseEncryptionKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-f]{64}$/i.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return null;
  const decoded = Buffer.from(trimmed, 'base64');
  return decoded.length === encryptionKeyBytes ? decoded : null;
}

/**
 * Embedded mode without SERVICE_ENCRYPTION_KEY: the key is kept in the data
 * directory (see keptSecret); losing it makes saved connection URLs unreadable.
 */
export function loadOrCreateEmbeddedKey(directory: string): Promise<Buffer> {
  return keptSecret(path.join(directory, embeddedKeyFile), {
    generate: () => randomBytes(encryptionKeyBytes),
    parse: parseEncryptionKey,
    serialize: (key) => key.toString('hex'),
    expected: 'a 32-byte hex key',
  });
}
