import type { OpenIdClient } from './openid-client-module.js';
import { OAuthFailure } from './oauth-provider.js';

/** oauth4webapi codes for a response whose content failed a check (iss, aud, nonce, state, signature...). */
const idTokenCodes = new Set([
  'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
  'OAUTH_JWT_TIMESTAMP_CHECK_FAILED',
  'OAUTH_INVALID_RESPONSE',
  'OAUTH_JWS_SIGNATURE_VERIFICATION_FAILED',
  'OAUTH_MISSING_REQUIRED_CLAIM',
]);

/** openid-client's code, and the detailed message of the oauth4webapi error it wraps (which names the field). */
export function describeOpenIdError(error: unknown): { code?: string; message: string } {
  if (!(error instanceof Error)) return { message: String(error) };
  const detail = error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
  return { code: (error as { code?: string }).code, message: detail };
}

/**
 * Translates what openid-client throws into the failure the browser sees.
 * An issuer mismatch (authorization response `iss` or ID token `iss`) is
 * named as such. Checks on the authorization response (state) come first, then the
 * token endpoint's refusal (a replayed code, a wrong PKCE verifier), then the
 * ID token's checks (nonce, issuer, audience, signature).
 * `client` is the loaded openid-client module (its error classes).
 */
export function oauthFailureOf(error: unknown, client: OpenIdClient): OAuthFailure {
  if (error instanceof OAuthFailure) return error;
  if (error instanceof client.AuthorizationResponseError)
    return new OAuthFailure('provider_denied', `the provider answered ${error.error}`);
  if (error instanceof client.ResponseBodyError)
    return new OAuthFailure('token_rejected', `the token endpoint answered ${error.error}`);
  const { code, message } = describeOpenIdError(error);
  if (/"iss"/.test(message)) return new OAuthFailure('issuer_mismatch', message);
  if (code === 'OAUTH_INVALID_RESPONSE' && /"state"/.test(message)) return new OAuthFailure('invalid_state', message);
  // GitHub refuses a code with 200 and an error body instead of a token: no access_token.
  if (code === 'OAUTH_INVALID_RESPONSE' && /"access_token"/.test(message))
    return new OAuthFailure('token_rejected', message);
  if (code && idTokenCodes.has(code)) return new OAuthFailure('id_token_invalid', message);
  if (error instanceof TypeError || code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || code === 'OAUTH_RESPONSE_IS_NOT_JSON') {
    return new OAuthFailure('provider_unavailable', message);
  }
  return new OAuthFailure('sign_in_failed', message);
}
