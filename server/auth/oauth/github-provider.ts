import type * as OpenId from 'openid-client';
import type { AuthorizationChecks, ExternalProfile, OAuthProvider } from './oauth-provider.js';
import { OAuthFailure } from './oauth-provider.js';
import { openIdClient, type OpenIdClient } from './openid-client-module.js';
import { oauthFailureOf } from './openid-errors.js';
import type { OAuthProviderSettings } from './provider-settings.js';
import { loadOnce } from '../../load-once.js';

/** GitHub's endpoints; tests point them at loopback stand-ins. */
export interface GitHubEndpoints {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  apiBaseUrl: string;
}

export const gitHubEndpoints: GitHubEndpoints = {
  authorizationEndpoint: 'https://github.com/login/oauth/authorize',
  tokenEndpoint: 'https://github.com/login/oauth/access_token',
  apiBaseUrl: 'https://api.github.com',
};

const apiTimeoutMs = 10_000;

async function gitHubApi<T>(endpoints: GitHubEndpoints, path: string, accessToken: string): Promise<T> {
  const response = await fetch(`${endpoints.apiBaseUrl}${path}`, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/vnd.github+json', 'user-agent': 'bullpen' },
    signal: AbortSignal.timeout(apiTimeoutMs),
  }).catch((error: Error) => {
    throw new OAuthFailure('provider_unavailable', `GitHub API ${path}: ${error.message}`);
  });
  if (!response.ok) throw new OAuthFailure('provider_unavailable', `GitHub API ${path} answered ${response.status}`);
  return (await response.json()) as T;
}

interface GitHubUser {
  id: number;
  login: string;
  name: string | null;
}
interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

/** GitHub is OAuth 2.0 without ID tokens: the subject is the numeric user id, the email the primary one (verified or not). */
async function gitHubProfile(endpoints: GitHubEndpoints, accessToken: string): Promise<ExternalProfile> {
  const [user, emails] = await Promise.all([
    gitHubApi<GitHubUser>(endpoints, '/user', accessToken),
    gitHubApi<GitHubEmail[]>(endpoints, '/user/emails', accessToken),
  ]);
  const primary = emails.find((entry) => entry.primary) ?? null;
  return {
    subject: String(user.id),
    email: primary?.email ?? null,
    emailVerified: primary?.verified === true,
    name: user.name ?? user.login,
  };
}

/** GitHub through openid-client's authorization code grant (state and PKCE S256), then GitHub's user API. */
export function gitHubProvider(
  settings: OAuthProviderSettings,
  endpoints: GitHubEndpoints,
  allowInsecureRequests: boolean,
): OAuthProvider {
  // Built on first use, with the module (openid-client-module.ts).
  const ready = loadOnce(async (): Promise<{ client: OpenIdClient; configuration: OpenId.Configuration }> => {
    const client = await openIdClient();
    const configuration = new client.Configuration(
      {
        issuer: 'https://github.com',
        authorization_endpoint: endpoints.authorizationEndpoint,
        token_endpoint: endpoints.tokenEndpoint,
      },
      settings.clientId,
      settings.clientSecret,
    );
    if (allowInsecureRequests) client.allowInsecureRequests(configuration);
    configuration.timeout = apiTimeoutMs / 1000;
    return { client, configuration };
  });
  return {
    id: settings.id,
    name: settings.name,
    type: 'oauth2',
    async authorizationUrl({ redirectUri, state, codeChallenge }) {
      const { client, configuration } = await ready();
      return client.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: settings.scopes.join(' '),
        state,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
      });
    },
    async complete(callbackUrl: URL, checks: AuthorizationChecks) {
      const { client, configuration } = await ready();
      try {
        const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
          expectedState: checks.state,
          pkceCodeVerifier: checks.codeVerifier,
        });
        return await gitHubProfile(endpoints, tokens.access_token);
      } catch (error) {
        throw oauthFailureOf(error, client);
      }
    },
  };
}
