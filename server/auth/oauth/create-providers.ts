import type { ServerMetadata } from 'openid-client';
import type { Environment } from '../../config-types.js';
import { isLoopbackHost } from '../loopback.js';
import { gitHubEndpoints, gitHubProvider, type GitHubEndpoints } from './github-provider.js';
import type { OAuthProvider } from './oauth-provider.js';
import { openIdConnectProvider } from './openid-connect-provider.js';
import type { OAuthProviderSettings } from './provider-settings.js';

/** Google's published OpenID Connect metadata: no discovery round trip on the first sign-in. */
export const googleMetadata: ServerMetadata = {
  issuer: 'https://accounts.google.com',
  authorization_endpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
  token_endpoint: 'https://oauth2.googleapis.com/token',
  userinfo_endpoint: 'https://openidconnect.googleapis.com/v1/userinfo',
  jwks_uri: 'https://www.googleapis.com/oauth2/v3/certs',
};

/**
 * For tests only, passed to the app factory (never read from the
 * environment): loopback stand-ins for GitHub's and Google's endpoints, and
 * plain-http issuers. Production always uses https and the real endpoints.
 */
export interface OAuthTestEndpoints {
  allowInsecureRequests?: boolean;
  github?: GitHubEndpoints;
  /** Google's endpoints; the issuer stays `https://accounts.google.com`. */
  google?: Omit<ServerMetadata, 'issuer'>;
}

/** By id as it appears in the route (`oidc`, `github`, `google`). */
export type OAuthProviders = ReadonlyMap<string, OAuthProvider>;

/**
 * Plain http to an issuer on this machine, outside production: an identity
 * provider in development mode (a Keycloak on http://localhost:8080) serves
 * no https. Anywhere else, and always in production, the issuer must be https.
 */
export function issuerMayUseHttp(issuerUrl: string, environment: Environment): boolean {
  const url = new URL(issuerUrl);
  return environment !== 'production' && url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

function providerFor(
  settings: OAuthProviderSettings,
  test: OAuthTestEndpoints,
  environment: Environment,
): OAuthProvider {
  const allowInsecureRequests = test.allowInsecureRequests === true;
  switch (settings.id) {
    case 'oidc':
      return openIdConnectProvider(settings, {
        issuerUrl: settings.issuerUrl!,
        allowInsecureRequests: allowInsecureRequests || issuerMayUseHttp(settings.issuerUrl!, environment),
      });
    case 'google':
      return openIdConnectProvider(settings, {
        metadata: { ...googleMetadata, ...test.google },
        allowInsecureRequests,
      });
    case 'github':
      return gitHubProvider(settings, test.github ?? gitHubEndpoints, allowInsecureRequests);
  }
}

/** The configured providers by id; nothing is contacted until someone signs in. */
export function createOAuthProviders(
  settings: OAuthProviderSettings[],
  test: OAuthTestEndpoints = {},
  environment: Environment = 'production',
): OAuthProviders {
  return new Map(settings.map((entry) => [entry.id, providerFor(entry, test, environment)]));
}
