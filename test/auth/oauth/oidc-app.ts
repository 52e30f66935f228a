import { afterAll, beforeAll } from 'vitest';
import { bootApp, type TestApp } from '../../helpers/app.js';
import type { TestBrowser } from './browser.js';
import { startTestIssuer, type TestIssuer } from './oidc-issuer.js';
import { loginAtIssuer, startSignIn } from './sign-in-flow.js';

/**
 * A test OpenID Connect issuer and the service signing in through it (as
 * provider `oidc`, "Acme SSO"), shared by the OIDC sign-in files. Exported
 * bindings are live: set once `useOidcApp()`'s beforeAll ran.
 */
export const appBaseUrl = 'http://localhost:3000';
export let issuer: TestIssuer;
export let app: TestApp;

export function oidcEnv(issuerUrl: string): Record<string, string> {
  return {
    APP_BASE_URL: appBaseUrl,
    OIDC_ISSUER_URL: issuerUrl,
    OIDC_CLIENT_ID: issuer.clientId,
    OIDC_CLIENT_SECRET: issuer.clientSecret,
    OIDC_DISPLAY_NAME: 'Acme SSO',
  };
}

export function account(login: string, email: string | null, verified = true): string {
  issuer.accounts.set(login, { email, email_verified: verified, name: `${login} Example` });
  return login;
}

/** authorize → login and consent at the provider → the callback URL it sends back (not yet visited). */
export async function providerRoundTrip(
  browser: TestBrowser,
  login: string,
  options: { redirectTo?: string; tamper?: (authorize: URL) => void } = {},
) {
  const authorize = await startSignIn(app, browser, 'oidc', options.redirectTo);
  options.tamper?.(authorize);
  return loginAtIssuer(browser, authorize.href, login, appBaseUrl);
}

/** Starts the issuer and boots the service before the file's tests; closes both after. */
export function useOidcApp(): void {
  beforeAll(async () => {
    issuer = await startTestIssuer(`${appBaseUrl}/api/auth/callback/oidc`);
    app = await bootApp({ env: oidcEnv(issuer.url), app: { oauth: { allowInsecureRequests: true } } });
  });
  afterAll(async () => {
    await app?.close();
    await issuer?.close();
  });
}
