import { randomBytes } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

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
 * Embedded mode without SERVICE_ENCRYPTION_KEY: the key lives beside the
 * SQLite file, readable by the service's user only, generated on first start.
 * Losing it makes saved connection URLs unreadable, so it is never rewritten.
 */
export async function loadOrCreateEmbeddedKey(directory: string): Promise<Buffer> {
  const file = path.join(directory, embeddedKeyFile);
  try {
    const key = parseEncryptionKey(await readFile(file, 'utf8'));
    if (!key) throw new Error(`${file} does not hold a 32-byte hex key`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(encryptionKeyBytes);
  // 'wx' fails rather than overwrite a key another process wrote meanwhile.
  await writeFile(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  await chmod(file, 0o600);
  return key;
}
