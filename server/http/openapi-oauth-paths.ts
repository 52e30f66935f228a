import type { OAuthProviderSettings } from '../auth/oauth/provider-settings.js';
import { oauthProviderIds } from '../auth/oauth/provider-settings.js';
import { errorResponsesOf } from './openapi/error-responses.js';

type Paths = Record<string, unknown>;

const providerParam = {
  name: 'provider',
  in: 'path' as const,
  required: true,
  schema: { type: 'string', enum: [...oauthProviderIds] satisfies Array<OAuthProviderSettings['id']> },
  description: 'A configured provider (see GET /auth/providers).',
};
const redirectHeader = { Location: { schema: { type: 'string' }, description: 'Where the browser goes next.' } };
/** Public GETs: 400 in authless mode, 404 for a provider not configured, rate limited like sign-in. */
const commonErrors = (path: string) =>
  errorResponsesOf({
    method: 'get', path, public: true, mutation: false, hasInput: true, meta: {}, operation: {},
    errors: { AUTHLESS_MODE: '', NOT_FOUND: 'Unknown or unconfigured provider' },
  });

/** The two sign-in redirects are plain express routes (the REST adapter answers JSON only), described by hand. */
export function oauthPaths(): Paths {
  return {
    '/auth/sign-in/{provider}': {
      get: {
        operationId: 'auth-oauth-signIn',
        tags: ['auth'],
        security: [],
        summary: 'Start signing in with an identity provider (browser navigation)',
        description:
          'Redirects to the provider with `state`, PKCE (`code_challenge_method=S256`) and, for OpenID Connect, `nonce`; ' +
          '`redirect_uri` is `{APP_BASE_URL}/api/auth/callback/{provider}`. Sets a short-lived HttpOnly state cookie.',
        parameters: [
          providerParam,
          { name: 'redirectTo', in: 'query', required: false, schema: { type: 'string' }, description: 'A path on this origin to land on afterwards; anything else becomes `/`.' },
        ],
        responses: { '302': { description: 'To the provider', headers: redirectHeader }, ...commonErrors('/auth/sign-in/{provider}') },
      },
    },
    '/auth/callback/{provider}': {
      get: {
        operationId: 'auth-oauth-callback',
        tags: ['auth'],
        security: [],
        summary: 'Where the provider sends the browser back',
        description:
          'Validates state (against the state cookie), PKCE, and for OpenID Connect nonce, issuer and audience; links the account ' +
          '(a verified email links to the user with that email) or creates a user; sets the session cookie and redirects to ' +
          '`redirectTo`. Any failure redirects to `/?authError=<code>` (invalid_state, issuer_mismatch, provider_denied, provider_unavailable, ' +
          'token_rejected, id_token_invalid, email_missing, email_not_verified, signup_refused, sign_in_failed) and is audited.',
        parameters: [providerParam],
        responses: { '302': { description: 'Signed in, or /?authError=<code>', headers: redirectHeader }, ...commonErrors('/auth/callback/{provider}') },
      },
    },
  };
}
