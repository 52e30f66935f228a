import type { OperationFacts } from './operations.js';

/** Why cookie-authenticated changes need a same-origin header (server/trpc/middleware/require-same-origin.ts). */
export const csrfRule =
  'A POST, PUT, PATCH or DELETE authenticated by the session cookie must carry an `Origin` (or, without it, a `Referer`) ' +
  'of APP_BASE_URL\'s origin, else it is refused with 403 `FORBIDDEN` (`reason: "csrf"`). Requests with a bearer token ' +
  'are exempt: scripts should use a token.';

export const securitySchemes = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API token created with `POST /auth/tokens` (`Authorization: Bearer <token>`). Refused by the routes that manage tokens and organizations of the signed-in user.',
  },
  cookieAuth: {
    type: 'apiKey',
    in: 'cookie',
    name: 'bullpen_session',
    description: `The session cookie set by \`POST /auth/sign-in/email\` or \`POST /auth/sign-up/email\`. ${csrfRule}`,
  },
} as const;

/**
 * Session-only routes refuse tokens (some need no permission yet a signed-in
 * user: changing a password, accepting an invitation); other public routes
 * need nothing; the rest take either credential.
 */
export function securityOf(operation: Pick<OperationFacts, 'public' | 'meta'>): Array<Record<string, string[]>> {
  if (operation.meta.sessionOnly) return [{ cookieAuth: [] }];
  if (operation.public) return [];
  return [{ bearerAuth: [] }, { cookieAuth: [] }];
}
