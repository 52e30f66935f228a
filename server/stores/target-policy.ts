import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { AppError } from '../../contracts/app-error.js';

/**
 * Which store addresses the service may contact (SERVICE_CONNECTION_ALLOW):
 * hostnames, `host:port`, CIDR ranges and `*.suffix` patterns. Hostnames are
 * resolved and EVERY address must pass; link-local addresses (cloud metadata)
 * pass only when an address or CIDR entry names them, whatever the hostname.
 * Without a list every address passes except link-local ones.
 */
export interface TargetPolicy {
  /** null: no SERVICE_CONNECTION_ALLOW. */
  readonly entries: readonly string[] | null;
  /** Resolves `host` and checks every address; the addresses to connect to, or 400 CONNECTION_TARGET_FORBIDDEN. */
  resolve(host: string, port: number): Promise<string[]>;
}

interface Rule {
  /** Matches a hostname (exact, or `*.suffix`), or null for an address rule. */
  name: ((host: string) => boolean) | null;
  addresses: BlockList | null;
  port: number | null;
}

const linkLocal = new BlockList();
linkLocal.addSubnet('169.254.0.0', 16, 'ipv4');
linkLocal.addSubnet('fe80::', 10, 'ipv6');

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** `[v6]:port`, `host:port` (one colon), or a bare host / address / CIDR. */
function splitPort(entry: string): { target: string; port: number | null } {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { target: bracketed[1]!, port: bracketed[2] ? Number(bracketed[2]) : null };
  const hostPort = /^([^:/]+):(\d+)$/.exec(entry);
  return hostPort ? { target: hostPort[1]!, port: Number(hostPort[2]) } : { target: entry, port: null };
}

export function parseAllowEntry(entry: string): Rule {
  const { target, port } = splitPort(entry.trim().toLowerCase());
  const cidr = /^(.+)\/(\d{1,3})$/.exec(target);
  if (cidr && isIP(cidr[1]!)) {
    const addresses = new BlockList();
    addresses.addSubnet(cidr[1]!, Number(cidr[2]), family(cidr[1]!));
    return { name: null, addresses, port };
  }
  if (isIP(target)) {
    const addresses = new BlockList();
    addresses.addAddress(target, family(target));
    return { name: null, addresses, port };
  }
  if (target.startsWith('*.')) {
    const suffix = target.slice(1);
    return { name: (host) => host.endsWith(suffix), addresses: null, port };
  }
  return { name: (host) => host === target, addresses: null, port };
}

/** The setting a policy reads and the code its refusals carry: store connections, or alert webhooks. */
export interface PolicyNaming {
  variable: 'SERVICE_CONNECTION_ALLOW' | 'SERVICE_WEBHOOK_ALLOW';
  code: 'CONNECTION_TARGET_FORBIDDEN' | 'WEBHOOK_TARGET_FORBIDDEN';
}
const storeNaming: PolicyNaming = { variable: 'SERVICE_CONNECTION_ALLOW', code: 'CONNECTION_TARGET_FORBIDDEN' };

export function createTargetPolicy(
  entries: readonly string[] | null,
  resolveAll = defaultResolveAll,
  naming: PolicyNaming = storeNaming,
): TargetPolicy {
  const forbidden = (host: string, port: number, why: string) =>
    new AppError(naming.code, `Connecting to ${host}:${port} is not allowed: ${why}`, { target: `${host}:${port}` });
  const rules = entries?.map(parseAllowEntry) ?? null;
  const portMatches = (rule: Rule, port: number) => rule.port === null || rule.port === port;
  const addressListed = (address: string, port: number) =>
    rules?.some((rule) => rule.addresses?.check(address, family(address)) && portMatches(rule, port)) ?? false;
  const nameListed = (host: string, port: number) =>
    rules?.some((rule) => rule.name?.(host) && portMatches(rule, port)) ?? false;

  function check(host: string, address: string, port: number): void {
    if (linkLocal.check(address, family(address)) && !addressListed(address, port)) {
      throw forbidden(
        host,
        port,
        `${address} is link-local (cloud metadata); list it in ${naming.variable} to allow it`,
      );
    }
    if (rules && !addressListed(address, port) && !nameListed(host, port)) {
      throw forbidden(
        host,
        port,
        `${host === address ? address : `${host} (${address})`} is outside ${naming.variable}`,
      );
    }
  }

  return {
    entries,
    async resolve(rawHost, port) {
      const host = rawHost.replace(/^\[|\]$/g, '').toLowerCase();
      const addresses = isIP(host)
        ? [host]
        : await resolveAll(host).catch(() => {
            throw forbidden(host, port, 'the name does not resolve');
          });
      for (const address of addresses) check(host, address, port);
      return addresses;
    },
  };
}

async function defaultResolveAll(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
}

/** Every seed `host:port` of a connection URL (one URL, or a comma-separated cluster seed list). */
export function seedTargets(url: string): Array<{ host: string; port: number }> {
  return url.split(',').map((raw) => {
    const parsed = new URL(raw.trim());
    return { host: parsed.hostname, port: Number(parsed.port || (/^postgres/i.test(parsed.protocol) ? 5432 : 6379)) };
  });
}

/** Checks every seed before anything but DNS is contacted; 400 CONNECTION_TARGET_FORBIDDEN naming the first refused one. */
export async function assertTargetsAllowed(policy: TargetPolicy, url: string): Promise<void> {
  for (const seed of seedTargets(url)) await policy.resolve(seed.host, seed.port);
}
