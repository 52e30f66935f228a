import { AppError } from '../../contracts/app-error.js';
import type { SecretReference } from '../../contracts/definitions.js';
import { splitSeedList } from '../../contracts/store-url.js';

/** Each URL of a store URL (or seed list) without what may carry a credential: userinfo, query and fragment. */
export function withoutCredentials(url: string): string {
  return splitSeedList(url)
    .map((part) => {
      try {
        const parsed = new URL(part);
        Object.assign(parsed, { username: '', password: '', search: '', hash: '' });
        return parsed.toString();
      } catch {
        return part.replace(/\/\/[^@/]*@/, '//').replace(/[?#].*$/, '');
      }
    })
    .join(',');
}

/** Whether a store URL carries anything `withoutCredentials` drops. */
export function hasCredentials(url: string): boolean {
  return splitSeedList(url).some((part) => {
    try {
      const parsed = new URL(part);
      return parsed.username !== '' || parsed.password !== '' || parsed.search !== '' || parsed.hash !== '';
    } catch {
      return /\/\/[^@/]*@|[?#]/.test(part);
    }
  });
}

/** The environment variable a secret is suggested under: `BULLPEN_SECRET_CONNECTIONS_PRIMARY_URL`. */
export const envNameFor = (secret: string) =>
  `BULLPEN_SECRET_${secret
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')}`;

/** How an export names a secret: by what it is (`connections.<name>.url`), with the variable the CLI reads it from. */
export const secretReferenceFor = (secret: string): SecretReference => ({ secret, env: envNameFor(secret) });

export interface MissingSecret {
  secret: string;
  env?: string;
  for: string;
}

/**
 * The secrets an import was given, by name. What it needs and was not given is noted (by name, with
 * its variable) for the answer; nothing is ever made up in its place.
 */
export class SecretBook {
  readonly missing: MissingSecret[] = [];

  constructor(private readonly given: Readonly<Record<string, string>>) {}

  /** The value of a reference if given (never an error). */
  peek(reference: SecretReference | null | undefined): string | undefined {
    return reference ? this.given[reference.secret] : undefined;
  }

  /** The value a change needs: noted as missing when not given. */
  need(reference: SecretReference, purpose: string): string | undefined {
    const value = this.given[reference.secret];
    if (value === undefined && !this.missing.some((entry) => entry.secret === reference.secret)) {
      this.missing.push({ secret: reference.secret, ...(reference.env ? { env: reference.env } : {}), for: purpose });
    }
    return value;
  }
}

/** A connection URL given as a secret must be the document's `url` with credentials: else it is for another store. */
export function assertSecretMatchesUrl(reference: SecretReference, value: string, url: string): void {
  if (withoutCredentials(value) !== withoutCredentials(url)) {
    throw new AppError(
      'VALIDATION_FAILED',
      `Secret "${reference.secret}" is a URL of another store than the document's url ${url} (compared without credentials)`,
      { field: 'secrets' },
    );
  }
}
