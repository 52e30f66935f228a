/**
 * Store URLs: one `redis://` / `rediss://` URL, or for a Redis Cluster a
 * comma-separated list of seed node URLs; or one `postgres://` /
 * `postgresql://` URL for queues held by BullMQ's PostgreSQL backend. Pure
 * functions, shared by the contracts (validation) and the server (client
 * options). Redaction is server/secrets/redact-credentials.ts's.
 */

const schemes = new Set(['redis:', 'rediss:']);
const postgresSchemes = new Set(['postgres:', 'postgresql:']);
/** libpq's sslmode values that make the connection use TLS. */
const tlsSslModes = new Set(['require', 'verify-ca', 'verify-full']);
const sslModes = new Set(['disable', 'allow', 'prefer', ...tlsSslModes]);

/** What holds a connection's queues: Redis, or BullMQ's PostgreSQL backend. Told by the URL's scheme. */
export type StoreKind = 'redis' | 'postgres';

export function storeKindOf(url: string): StoreKind {
  return /^postgres(ql)?:\/\//i.test(url.trim()) ? 'postgres' : 'redis';
}

function postgresUrlProblem(url: string): string | null {
  if (isSeedList(url)) return 'a postgres:// URL names one server (no comma-separated list)';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be a valid postgres:// or postgresql:// URL';
  }
  if (!parsed.hostname) return 'must name a host';
  const sslmode = parsed.searchParams.get('sslmode');
  if (sslmode !== null && !sslModes.has(sslmode)) return `sslmode must be one of ${[...sslModes].join(', ')}`;
  return null;
}

export function splitSeedList(url: string): string[] {
  return url.split(',').map((part) => part.trim());
}

export function isSeedList(url: string): boolean {
  return splitSeedList(url).length > 1;
}

/** Why a store URL is unusable, or null when it is fine. Never echoes the URL (it may hold a password). */
export function storeUrlProblem(url: string): string | null {
  if (storeKindOf(url) === 'postgres') return postgresUrlProblem(url);
  const parts = splitSeedList(url);
  const protocols = new Set<string>();
  for (const part of parts) {
    let parsed: URL;
    try {
      parsed = new URL(part);
    } catch {
      return 'must be a redis:// or rediss:// URL, a comma-separated list of them (cluster seed nodes), or a postgres:// URL';
    }
    if (!schemes.has(parsed.protocol)) {
      if (postgresSchemes.has(parsed.protocol)) return 'a postgres:// URL names one server (no comma-separated list)';
      return `must use redis://, rediss:// or postgres:// (got ${parsed.protocol.slice(0, 20)}//)`;
    }
    if (!parsed.hostname) return 'must name a host';
    if (parsed.pathname.length > 1 && !/^\/\d{1,2}$/.test(parsed.pathname))
      return 'path must be a database number, e.g. /0';
    protocols.add(parsed.protocol);
  }
  if (protocols.size > 1) return 'seed nodes must all use the same scheme';
  return null;
}

/** `rediss://`, or a postgres:// URL whose sslmode asks for TLS. */
export function usesTls(url: string): boolean {
  if (storeKindOf(url) === 'postgres')
    return URL.canParse(url.trim()) && tlsSslModes.has(new URL(url.trim()).searchParams.get('sslmode') ?? '');
  return splitSeedList(url)[0]!.startsWith('rediss://');
}
