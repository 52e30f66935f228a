import { parseURL } from 'ioredis/built/utils/index.js';
import { AppError } from '../../contracts/app-error.js';
import { splitSeedList, storeKindOf } from '../../contracts/store-url.js';

/**
 * Parses a store URL exactly as the store client will (ioredis's own parser,
 * which decodes the user and password), so a URL it would choke on (e.g. a
 * malformed percent escape, `%PW`) is refused as 400 INVALID_URL before it is
 * saved, and a saved one never turns into a 500 when the client is built.
 */
export function assertClientCanParse(url: string, whose = 'url'): void {
  const postgres = storeKindOf(url) === 'postgres';
  for (const member of splitSeedList(url)) {
    try {
      if (postgres) decodeCredentials(new URL(member));
      else parseURL(member);
    } catch (error) {
      const reason =
        error instanceof URIError
          ? 'a malformed percent escape (write a literal % as %25)'
          : 'a part the store client cannot read';
      throw new AppError('INVALID_URL', `Invalid ${whose}: it has ${reason}`, {
        issues: [{ path: ['url'], message: `has ${reason}` }],
      });
    }
  }
}

/** pg decodes the user and password as ioredis does: a malformed escape must fail here, not in the pool. */
function decodeCredentials(url: URL): void {
  decodeURIComponent(url.username);
  decodeURIComponent(url.password);
}
