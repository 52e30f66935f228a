import type { OAuthProviderId, OAuthProviderType } from './provider-settings.js';

/** Who signed in at the provider: its stable subject id and what it says about the email. */
export interface ExternalProfile {
  subject: string;
  email: string | null;
  /** Only a provider-verified email may link to an existing user or create one. */
  emailVerified: boolean;
  name: string | null;
}

/** What the sign-in route generated and the state cookie carries to the callback. */
export interface AuthorizationChecks {
  state: string;
  codeVerifier: string;
  /** OpenID Connect providers only. */
  nonce: string | null;
}

export interface OAuthProvider {
  id: OAuthProviderId;
  name: string;
  type: OAuthProviderType;
  /** The provider's authorization URL for this attempt (state, S256 PKCE challenge, nonce for OIDC). */
  authorizationUrl(input: {
    redirectUri: string;
    state: string;
    codeChallenge: string;
    nonce: string | null;
  }): Promise<URL>;
  /** Validates the callback (state, PKCE, and for OIDC nonce, issuer, audience), redeems the code, reads the profile. */
  complete(callbackUrl: URL, checks: AuthorizationChecks): Promise<ExternalProfile>;
}

/**
 * Why a sign-in with a provider failed, as the `authError` code the browser
 * lands with. Never carries provider secrets or a stack.
 */
export type OAuthFailureCode =
  | 'invalid_state'
  | 'issuer_mismatch'
  | 'provider_denied'
  | 'provider_unavailable'
  | 'token_rejected'
  | 'id_token_invalid'
  | 'email_missing'
  | 'email_not_verified'
  | 'signup_refused'
  /** A first sign-in whose verified email belongs to an existing account: sign in as usual, then link. */
  | 'account_exists'
  /** Linking: the provider account already signs in as another user. */
  | 'identity_in_use'
  /** Linking: you already have another account of this provider linked. */
  | 'already_linked'
  /** Linking: the callback did not come with the session of the user who started it. */
  | 'link_session_mismatch'
  | 'sign_in_failed';

export class OAuthFailure extends Error {
  override name = 'OAuthFailure';
  constructor(
    readonly code: OAuthFailureCode,
    message: string,
  ) {
    super(message);
  }
}
