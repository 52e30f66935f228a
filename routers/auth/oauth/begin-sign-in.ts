import type { OAuthProvider } from '../../../server/auth/oauth/oauth-provider.js';
import { openIdClient } from '../../../server/auth/oauth/openid-client-module.js';
import { sealAttempt, stateCookie, stateLifetimeSeconds } from './state-cookie.js';
import type { SecretHasher } from '../../../server/auth/secret-hash.js';
import { callbackUrl } from './callback-url.js';

/**
 * Starts a sign-in (or a link: `linkUserId`, the signed-in user asking):
 * fresh state, PKCE verifier (S256 challenge) and, for OpenID Connect, nonce;
 * they ride to the callback in the signed state cookie, the provider gets
 * only the state, challenge and nonce.
 */
export async function beginSignIn(input: {
  provider: OAuthProvider;
  hash: SecretHasher;
  appBaseUrl: string;
  redirectTo: string;
  linkUserId?: string;
}): Promise<{ location: string; cookie: string }> {
  const { provider, appBaseUrl } = input;
  const client = await openIdClient();
  const state = client.randomState();
  const codeVerifier = client.randomPKCECodeVerifier();
  const nonce = provider.type === 'oidc' ? client.randomNonce() : null;
  const location = await provider.authorizationUrl({
    redirectUri: callbackUrl(appBaseUrl, provider.id),
    state,
    codeChallenge: await client.calculatePKCECodeChallenge(codeVerifier),
    nonce,
  });
  const sealed = sealAttempt(input.hash, {
    provider: provider.id,
    state,
    codeVerifier,
    nonce,
    redirectTo: input.redirectTo,
    ...(input.linkUserId ? { linkUserId: input.linkUserId } : {}),
    expiresAt: Date.now() + stateLifetimeSeconds * 1000,
  });
  return { location: location.href, cookie: stateCookie(sealed, appBaseUrl.startsWith('https:')) };
}
