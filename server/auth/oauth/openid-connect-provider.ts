import type * as OpenId from 'openid-client';
import type { AuthorizationChecks, ExternalProfile, OAuthProvider } from './oauth-provider.js';
import { OAuthFailure } from './oauth-provider.js';
import { openIdClient, type OpenIdClient } from './openid-client-module.js';
import { describeOpenIdError, oauthFailureOf } from './openid-errors.js';
import type { OAuthProviderSettings } from './provider-settings.js';
import { loadOnce } from '../../load-once.js';

export interface OpenIdConnectSource {
  /** Discovered from `{issuer}/.well-known/openid-configuration` on first use (the generic provider). */
  issuerUrl?: string;
  /** Known endpoints (Google): no discovery round trip. */
  metadata?: OpenId.ServerMetadata;
  /** Plain-http endpoints: loopback stand-ins in tests, and an issuer on loopback outside production. */
  allowInsecureRequests: boolean;
}

const requestTimeoutSeconds = 10;

/** Lazily: an issuer that is down at startup must not stop the service, only this provider's sign-ins. */
function configurationLoader(
  settings: OAuthProviderSettings,
  source: OpenIdConnectSource,
): () => Promise<OpenId.Configuration> {
  const build = async () => {
    const client = await openIdClient();
    const execute = [
      ...(source.allowInsecureRequests ? [client.allowInsecureRequests] : []),
      // The ID token's signature is checked against the issuer's keys, not only its claims.
      client.enableNonRepudiationChecks,
    ];
    const configuration = source.metadata
      ? new client.Configuration(source.metadata, settings.clientId, settings.clientSecret)
      : await client.discovery(new URL(source.issuerUrl!), settings.clientId, settings.clientSecret, undefined, {
          execute,
          timeout: requestTimeoutSeconds,
        });
    if (source.metadata) for (const step of execute) step(configuration);
    configuration.timeout = requestTimeoutSeconds;
    return configuration;
  };
  // An issuer down at the first sign-in is asked again at the next (loadOnce keeps no failure).
  return loadOnce(() =>
    build().catch((error: unknown) => {
      throw new OAuthFailure(
        'provider_unavailable',
        `cannot reach the ${settings.id} issuer: ${describeOpenIdError(error).message}`,
      );
    }),
  );
}

async function profileOf(
  client: OpenIdClient,
  configuration: OpenId.Configuration,
  tokens: Awaited<ReturnType<OpenIdClient['authorizationCodeGrant']>>,
): Promise<ExternalProfile> {
  const claims = tokens.claims();
  if (!claims) throw new OAuthFailure('id_token_invalid', 'the provider returned no ID token');
  // Providers that follow the spec to the letter put scope claims in UserInfo only.
  const info: Record<string, unknown> =
    claims.email === undefined && configuration.serverMetadata().userinfo_endpoint
      ? await client.fetchUserInfo(configuration, tokens.access_token, claims.sub)
      : claims;
  const email = typeof info.email === 'string' ? info.email : null;
  return {
    subject: claims.sub,
    email,
    emailVerified: email !== null && info.email_verified === true,
    name: typeof info.name === 'string' ? info.name : null,
  };
}

/** An OpenID Connect provider through openid-client: discovery, PKCE S256, state, nonce, ID token validation. */
export function openIdConnectProvider(settings: OAuthProviderSettings, source: OpenIdConnectSource): OAuthProvider {
  const configuration = configurationLoader(settings, source);
  return {
    id: settings.id,
    name: settings.name,
    type: 'oidc',
    async authorizationUrl({ redirectUri, state, codeChallenge, nonce }) {
      const client = await openIdClient();
      return client.buildAuthorizationUrl(await configuration(), {
        redirect_uri: redirectUri,
        scope: settings.scopes.join(' '),
        state,
        ...(nonce ? { nonce } : {}),
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      });
    },
    async complete(callbackUrl: URL, checks: AuthorizationChecks) {
      const config = await configuration();
      const client = await openIdClient();
      try {
        const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          expectedState: checks.state,
          expectedNonce: checks.nonce ?? undefined,
          pkceCodeVerifier: checks.codeVerifier,
          idTokenExpected: true,
        });
        return await profileOf(client, config, tokens);
      } catch (error) {
        throw oauthFailureOf(error, client);
      }
    },
  };
}
