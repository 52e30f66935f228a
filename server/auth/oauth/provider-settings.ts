/** The identity providers Bullpen signs in with; the id is the last path segment of their routes. */
export const oauthProviderIds = ['oidc', 'github', 'google'] as const;
export type OAuthProviderId = (typeof oauthProviderIds)[number];

/** `oidc`: OpenID Connect (ID token, nonce); `oauth2`: plain OAuth 2.0 plus the provider's user API (GitHub). */
export type OAuthProviderType = 'oidc' | 'oauth2';

export interface OAuthProviderSettings {
  id: OAuthProviderId;
  name: string;
  type: OAuthProviderType;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  /** The generic provider's issuer (OIDC_ISSUER_URL), discovered on first use. */
  issuerUrl?: string;
}

/** The variables that configure the providers, already trimmed (blank = unset). */
export interface OAuthVariables {
  OIDC_ISSUER_URL?: string | undefined;
  OIDC_CLIENT_ID?: string | undefined;
  OIDC_CLIENT_SECRET?: string | undefined;
  OIDC_DISPLAY_NAME?: string | undefined;
  OIDC_SCOPES?: string | undefined;
  GITHUB_CLIENT_ID?: string | undefined;
  GITHUB_CLIENT_SECRET?: string | undefined;
  GOOGLE_CLIENT_ID?: string | undefined;
  GOOGLE_CLIENT_SECRET?: string | undefined;
}

export class OAuthSettingsError extends Error {
  override name = 'OAuthSettingsError';
}

/**
 * A provider is on when all its required variables are set, off when none
 * is; anything in between stops the service naming the first missing one,
 * so a typo never leaves a sign-in button that cannot work.
 */
function requireAll(
  vars: OAuthVariables,
  group: Array<keyof OAuthVariables>,
  required: Array<keyof OAuthVariables>,
): boolean {
  const given = group.filter((name) => vars[name] !== undefined);
  if (given.length === 0) return false;
  const missing = required.find((name) => vars[name] === undefined);
  if (missing) throw new OAuthSettingsError(`Invalid ${missing} (unset): required when ${given[0]} is set`);
  return true;
}

function oidcSettings(vars: OAuthVariables): OAuthProviderSettings | null {
  const group: Array<keyof OAuthVariables> = [
    'OIDC_ISSUER_URL',
    'OIDC_CLIENT_ID',
    'OIDC_CLIENT_SECRET',
    'OIDC_DISPLAY_NAME',
    'OIDC_SCOPES',
  ];
  if (!requireAll(vars, group, ['OIDC_ISSUER_URL', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'])) return null;
  const scopes = (vars.OIDC_SCOPES ?? 'openid email profile').split(/\s+/).filter(Boolean);
  if (!scopes.includes('openid'))
    throw new OAuthSettingsError(`Invalid OIDC_SCOPES ("${vars.OIDC_SCOPES}"): must include openid`);
  return {
    id: 'oidc',
    name: vars.OIDC_DISPLAY_NAME ?? 'Single sign-on',
    type: 'oidc',
    clientId: vars.OIDC_CLIENT_ID!,
    clientSecret: vars.OIDC_CLIENT_SECRET!,
    scopes,
    issuerUrl: vars.OIDC_ISSUER_URL!,
  };
}

export function readOAuthProviders(vars: OAuthVariables): OAuthProviderSettings[] {
  const providers: OAuthProviderSettings[] = [];
  const oidc = oidcSettings(vars);
  if (oidc) providers.push(oidc);
  if (requireAll(vars, ['GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET'], ['GITHUB_CLIENT_ID', 'GITHUB_CLIENT_SECRET'])) {
    providers.push({
      id: 'github',
      name: 'GitHub',
      type: 'oauth2',
      clientId: vars.GITHUB_CLIENT_ID!,
      clientSecret: vars.GITHUB_CLIENT_SECRET!,
      scopes: ['read:user', 'user:email'],
    });
  }
  if (requireAll(vars, ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'], ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'])) {
    providers.push({
      id: 'google',
      name: 'Google',
      type: 'oidc',
      clientId: vars.GOOGLE_CLIENT_ID!,
      clientSecret: vars.GOOGLE_CLIENT_SECRET!,
      scopes: ['openid', 'email', 'profile'],
    });
  }
  return providers;
}
