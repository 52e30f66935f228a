/**
 * The one URL redaction, used by the audit trail (parameters written and
 * read), responses (connection and alert destination views, error
 * messages) and every log line: in every URL inside a text, only the scheme,
 * host and port stay. The userinfo (`user:password@`) is masked, and the
 * path, query and fragment become `/…` (a webhook's path is its secret:
 * Slack's are; ioredis takes `?password=…`). A Redis URL keeps its database
 * number (`/0`), which is a selector, not a secret. Works on malformed URLs
 * too: no parsing that can throw.
 */

export const maskedCredential = '****';
/** What stands for a removed path, query or fragment. */
export const removedPath = '/…';

const urlInText = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]*/gi;
const schemeAndRest = /^([a-z][a-z0-9+.-]*:\/\/)(.*)$/is;
/** Where the authority ends (browsers also end it at `\`). */
const authorityEnd = /[/?#\\]/;
const redisDatabase = /^\/\d{1,2}$/;

function maskedUserinfo(userinfo: string | null): string {
  if (userinfo === null) return '';
  const [user] = userinfo.split(':');
  return `${user ? maskedCredential : ''}:${maskedCredential}@`;
}

function redactedTail(scheme: string, tail: string): string {
  if (tail === '' || tail === '/') return tail;
  if (/^rediss?:\/\/$/i.test(scheme) && redisDatabase.test(tail)) return tail;
  return removedPath;
}

function redactOneUrl(url: string): string {
  const [, scheme = '', rest = ''] = schemeAndRest.exec(url) ?? [];
  const end = rest.search(authorityEnd);
  const authority = end === -1 ? rest : rest.slice(0, end);
  // The userinfo ends at the authority's last `@` (a password may hold a raw `@`).
  const at = authority.lastIndexOf('@');
  const userinfo = at === -1 ? null : authority.slice(0, at);
  return `${scheme}${maskedUserinfo(userinfo)}${authority.slice(at + 1)}${redactedTail(scheme, end === -1 ? '' : rest.slice(end))}`;
}

function redactUrlOrSeedList(text: string): string {
  // A seed list (`redis://a@h1,redis://b@h2`) arrives as one match: redact each member.
  return text
    .split(/,(?=[a-z][a-z0-9+.-]*:\/\/)/i)
    .map(redactOneUrl)
    .join(',');
}

/** The text with every URL in it reduced to scheme, masked userinfo, host and port. */
export function redactUrlCredentials(text: string): string {
  if (!text.includes('://')) return text;
  return text.replace(urlInText, redactUrlOrSeedList);
}
