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
/** Where the browser lands after a sign-in or a link, on this origin only (routers/auth/oauth/safe-redirect.ts). */
const redirectToParam = {
  name: 'redirectTo',
  in: 'query' as const,
  required: false,
  schema: { type: 'string' },
  description: 'A path on this origin to land on afterwards; anything else becomes `/`.',
};
const redirectHeader = { Location: { schema: { type: 'string' }, description: 'Where the browser goes next.' } };
/** Public GETs: 400 in authless mode, 404 for a provider not configured, rate limited like sign-in. */
const commonErrors = (path: string) =>
  errorResponsesOf({
    method: 'get',
    path,
    public: true,
    mutation: false,
    hasInput: true,
    meta: {},
    operation: {},
    errors: { AUTHLESS_MODE: '', NOT_FOUND: 'Unknown or unconfigured provider' },
  });

/** The link start: the signed-in user's session only (401 otherwise), from this app (403 for another site's navigation). */
const linkErrors = (path: string) =>
  errorResponsesOf({
    method: 'get',
    path,
    public: true,
    mutation: false,
    hasInput: true,
    meta: {},
    operation: {},
    errors: {
      AUTHLESS_MODE: '',
      NOT_FOUND: 'Unknown or unconfigured provider',
      UNAUTHORIZED: 'Not signed in with a session (API tokens cannot link)',
      FORBIDDEN: 'Another site sent the browser here (`Sec-Fetch-Site: cross-site` or `same-site`)',
    },
  });

/** The sign-in and link redirects are plain express routes (the REST adapter answers JSON only), described by hand. */
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
        parameters: [providerParam, redirectToParam],
        responses: {
          '302': { description: 'To the provider', headers: redirectHeader },
          ...commonErrors('/auth/sign-in/{provider}'),
        },
      },
    },
    '/auth/callback/{provider}': {
      get: {
        operationId: 'auth-oauth-callback',
        tags: ['auth'],
        security: [],
        summary: 'Where the provider sends the browser back',
        description:
          'Validates state (against the state cookie), PKCE, and for OpenID Connect nonce, issuer and audience. A sign-in: the provider ' +
          'account signs in as the user it is linked to, or, never linked and with a verified email no account has, creates one; an email ' +
          'that has an account is refused (`account_exists`: sign in as usual, then link with `GET /auth/link/{provider}`). Sets the ' +
          'session cookie and redirects to `redirectTo`. A link (started by `GET /auth/link/{provider}`): needs the session of the user ' +
          'who started it, links the account to them and redirects to `redirectTo`. Any failure redirects to `/?authError=<code>` ' +
          '(invalid_state, issuer_mismatch, provider_denied, provider_unavailable, token_rejected, id_token_invalid, email_missing, ' +
          'email_not_verified, signup_refused, account_exists, identity_in_use, already_linked, link_session_mismatch, sign_in_failed) and is audited.',
        parameters: [providerParam],
        responses: {
          '302': { description: 'Signed in, or /?authError=<code>', headers: redirectHeader },
          ...commonErrors('/auth/callback/{provider}'),
        },
      },
    },
    '/auth/link/{provider}': {
      get: {
        operationId: 'auth-oauth-link',
        tags: ['auth'],
        security: [{ cookieAuth: [] }],
        summary: 'Link an identity provider account to yourself (browser navigation, signed in)',
        description:
          'Starts the same flow as sign-in (state, PKCE S256, and for OpenID Connect nonce; the same callback), for the signed-in user only: ' +
          'the callback links the provider account to the user who started, if their session comes with it, and redirects to `redirectTo`; ' +
          'refusals land on `/?authError=<code>` (identity_in_use: the account signs in as someone else; already_linked: you have another ' +
          'account of this provider; link_session_mismatch). Audited as `auth.oauth.link`. See `GET /auth/identities` to list and unlink.',
        parameters: [providerParam, redirectToParam],
        responses: {
          '302': { description: 'To the provider', headers: redirectHeader },
          ...linkErrors('/auth/link/{provider}'),
        },
      },
    },
  };
}
