import { createHmac } from 'node:crypto';

/**
 * How session ids and API tokens are kept at rest: HMAC-SHA-256 keyed with
 * AUTH_SECRET, hex. A leaked database then holds neither a live credential nor
 * anything to test guesses against without the secret. Rotating AUTH_SECRET
 * ends every session and voids every token.
 */
export type SecretHasher = (value: string) => string;

export function createSecretHasher(secret: string): SecretHasher {
  return (value) => createHmac('sha256', secret).update(value).digest('hex');
}
