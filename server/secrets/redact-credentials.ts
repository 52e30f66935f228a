/**
 * The one credential redaction, used by the audit trail, responses, logs and
 * error messages: in every URL inside a text, the userinfo (`user:password@`)
 * and each query parameter that carries a credential (ioredis takes
 * `?password=…`) are masked. Works on malformed URLs too: no parsing that can throw.
 */

export const maskedCredential = '****';

/** Query keys whose values are credentials: password, username, user, anything with pass/secret/token/key/auth. */
const credentialParameter = /^(user(name)?|auth)$|pass|secret|token|key|credential|sig/i;

const urlInText = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]*/gi;
const userInfo = /^([a-z][a-z0-9+.-]*:\/\/)([^@/?#\s]*)@/i;
const queryParameter = /([?&;])([^=&;#\s]*)=([^&;#\s]*)/g;

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function redactOneUrl(url: string): string {
  // A seed list (`redis://a@h1,redis://b@h2`) arrives as one match: mask each member.
  return url
    .split(/,(?=[a-z][a-z0-9+.-]*:\/\/)/i)
    .map((member) =>
      member
        .replace(userInfo, (_match, scheme: string, info: string) => {
          const [user] = info.split(':');
          return `${scheme}${user ? maskedCredential : ''}:${maskedCredential}@`;
        })
        .replace(queryParameter, (match, separator: string, key: string) =>
          credentialParameter.test(safeDecode(key)) ? `${separator}${key}=${maskedCredential}` : match,
        ),
    )
    .join(',');
}

/** The text with every URL's credentials masked. */
export function redactUrlCredentials(text: string): string {
  if (!text.includes('://')) return text;
  return text.replace(urlInText, redactOneUrl);
}
