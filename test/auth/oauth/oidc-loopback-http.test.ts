import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issuerMayUseHttp } from '../../../server/auth/oauth/create-providers.js';
import { bootApp, request, type TestApp } from '../../helpers/app.js';
import { TestBrowser } from './browser.js';
import { startTestIssuer, type TestIssuer } from './oidc-issuer.js';
import { finishOnApp, loginAtIssuer, startSignIn } from './sign-in-flow.js';

/**
 * An OpenID provider on http://localhost (a Keycloak in development mode,
 * here the real test provider served over http) signs people in outside
 * production, with no test option: issue 35, finding 9.
 */
const appBaseUrl = 'http://localhost:3000';
let issuer: TestIssuer;
let app: TestApp;

const envFor = (issuerUrl: string, nodeEnv: string) => ({
  NODE_ENV: nodeEnv,
  APP_BASE_URL: appBaseUrl,
  OIDC_ISSUER_URL: issuerUrl,
  OIDC_CLIENT_ID: issuer.clientId,
  OIDC_CLIENT_SECRET: issuer.clientSecret,
  OIDC_DISPLAY_NAME: 'Local Keycloak',
});

beforeAll(async () => {
  issuer = await startTestIssuer(`${appBaseUrl}/api/auth/callback/oidc`);
  app = await bootApp({ env: envFor(issuer.url, 'development') });
});
afterAll(async () => {
  await app?.close();
  await issuer?.close();
});

describe('an OpenID issuer on loopback over plain http', () => {
  it('signs in outside production: discovery, login and consent, callback, a working session', async () => {
    issuer.accounts.set('dana', { email: 'dana@example.test', email_verified: true, name: 'Dana Example' });
    const browser = new TestBrowser();
    const authorize = await startSignIn(app, browser, 'oidc');
    expect(authorize.origin).toBe(issuer.url);
    const callback = await loginAtIssuer(browser, authorize.href, 'dana', appBaseUrl);
    const landed = await finishOnApp(app, browser, callback);
    expect(landed.session).toBeTruthy();
    const session = await request(`${app.api}/auth/get-session`, {
      headers: { cookie: `bullpen_session=${landed.session}` },
    });
    expect(session.body.user.email).toBe('dana@example.test');
  });

  it('is refused in production (the service still runs)', async () => {
    const production = await bootApp({ env: envFor(issuer.url, 'production') });
    try {
      const response = await fetch(`${production.api}/auth/sign-in/oidc`, { redirect: 'manual' });
      expect(response.headers.get('location')).toBe('/?authError=provider_unavailable');
      expect(production.logs.some((line) => line.includes('only requests to HTTPS are allowed'))).toBe(true);
      expect((await request(`${production.api}/health`)).status).toBe(200);
    } finally {
      await production.close();
    }
  });

  it('allows http only to this machine, and never in production', () => {
    for (const url of [
      'http://localhost:8080/realms/dev',
      'http://127.0.0.1:8080',
      'http://127.3.2.1/x',
      'http://[::1]:8080/',
    ]) {
      expect(issuerMayUseHttp(url, 'development'), url).toBe(true);
      expect(issuerMayUseHttp(url, 'test'), url).toBe(true);
      expect(issuerMayUseHttp(url, 'production'), url).toBe(false);
    }
    for (const url of [
      'http://keycloak.internal:8080',
      'http://10.0.0.5',
      'http://localhost.example.com',
      'http://[::2]/',
      'https://localhost:8443',
    ]) {
      expect(issuerMayUseHttp(url, 'development'), url).toBe(false);
    }
  });
});
