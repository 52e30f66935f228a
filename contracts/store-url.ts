/**
 * Store URLs: one `redis://` / `rediss://` URL, or for a Redis Cluster a
 * comma-separated list of seed node URLs. Pure functions, shared by the
 * contracts (validation) and the server (client options). Redaction is
 * server/secrets/redact-credentials.ts's.
 */

const schemes = new Set(['redis:', 'rediss:']);

export function splitSeedList(url: string): string[] {
  return url.split(',').map((part) => part.trim());
}

export function isSeedList(url: string): boolean {
  return splitSeedList(url).length > 1;
}

/** Why a store URL is unusable, or null when it is fine. Never echoes the URL (it may hold a password). */
export function storeUrlProblem(url: string): string | null {
  const parts = splitSeedList(url);
  const protocols = new Set<string>();
  for (const part of parts) {
    let parsed: URL;
    try {
      parsed = new URL(part);
    } catch {
      return 'must be a redis:// or rediss:// URL, or a comma-separated list of them (cluster seed nodes)';
    }
    if (!schemes.has(parsed.protocol)) return `must use redis:// or rediss:// (got ${parsed.protocol.slice(0, 20)}//)`;
    if (!parsed.hostname) return 'must name a host';
    if (parsed.pathname.length > 1 && !/^\/\d{1,2}$/.test(parsed.pathname)) return 'path must be a database number, e.g. /0';
    protocols.add(parsed.protocol);
  }
  if (protocols.size > 1) return 'seed nodes must all use the same scheme';
  return null;
}

export function usesTls(url: string): boolean {
  return splitSeedList(url)[0]!.startsWith('rediss://');
}
