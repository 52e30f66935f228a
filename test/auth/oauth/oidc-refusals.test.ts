import { describe, expect, it } from 'vitest';
import { bootApp, request } from '../../helpers/app.js';
import { TestBrowser } from './browser.js';
import { account, app, issuer, oidcEnv, providerRoundTrip, useOidcApp } from './oidc-app.js';
import { finishOnApp, onApp } from './sign-in-flow.js';

useOidcApp();

describe('sign-in with an OpenID Connect provider', () => {
  it('refuses a tampered state', async () => {
    const browser = new TestBrowser();
    const callback = await providerRoundTrip(browser, account('erin', 'erin@example.test'));
    callback.searchParams.set('state', 'forged-state-value-0123456789');
    expect(await finishOnApp(app, browser, callback)).toEqual({
      location: '/?authError=invalid_state',
      session: undefined,
    });
  });

  it('refuses a callback without the state cookie of the browser that started', async () => {
    const callback = await providerRoundTrip(new TestBrowser(), account('frank', 'frank@example.test'));
    expect(await finishOnApp(app, new TestBrowser(), callback)).toEqual({
      location: '/?authError=invalid_state',
      session: undefined,
    });
  });

  it('refuses a replayed code', async () => {
    const browser = new TestBrowser();
    const callback = await providerRoundTrip(browser, account('grace', 'grace@example.test'));
    const stateCookie = browser.cookie(app.url, 'bullpen_oauth')!;
    expect((await finishOnApp(app, browser, callback)).session).toBeTruthy();
    const replay = await fetch(onApp(app, callback), {
      redirect: 'manual',
      headers: { cookie: `bullpen_oauth=${stateCookie}` },
    });
    expect(replay.headers.get('location')).toBe('/?authError=token_rejected');
    expect(
      replay.headers
        .getSetCookie()
        .some((line) => line.startsWith('bullpen_session=') && !line.startsWith('bullpen_session=;')),
    ).toBe(false);
  });

  it('refuses an ID token with another nonce', async () => {
    const browser = new TestBrowser();
    const callback = await providerRoundTrip(browser, account('heidi', 'heidi@example.test'), {
      tamper: (authorize) => authorize.searchParams.set('nonce', 'nonce-injected-by-an-attacker-0123'),
    });
    expect(await finishOnApp(app, browser, callback)).toEqual({
      location: '/?authError=id_token_invalid',
      session: undefined,
    });
  });

  it('refuses a code redeemed without the matching PKCE verifier', async () => {
    const browser = new TestBrowser();
    const callback = await providerRoundTrip(browser, account('ivan', 'ivan@example.test'), {
      tamper: (authorize) =>
        authorize.searchParams.set('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'),
    });
    expect(await finishOnApp(app, browser, callback)).toEqual({
      location: '/?authError=token_rejected',
      session: undefined,
    });
  });

  it('refuses an answer naming another issuer', async () => {
    const browser = new TestBrowser();
    const callback = await providerRoundTrip(browser, account('judy', 'judy@example.test'));
    callback.searchParams.set('iss', 'http://evil.example');
    expect(await finishOnApp(app, browser, callback)).toEqual({
      location: '/?authError=issuer_mismatch',
      session: undefined,
    });
  });
});

describe('an issuer whose discovery names another issuer', () => {
  it('is refused at sign-in, without stopping the service', async () => {
    const misnamed = await bootApp({
      env: oidcEnv(issuer.url.replace('127.0.0.1', 'localhost')),
      app: { oauth: { allowInsecureRequests: true } },
    });
    try {
      const response = await fetch(`${misnamed.api}/auth/sign-in/oidc`, { redirect: 'manual' });
      expect(response.headers.get('location')).toBe('/?authError=provider_unavailable');
      expect(
        misnamed.logs.some((line) =>
          line.includes('cannot reach the oidc issuer: discovered metadata issuer does not match'),
        ),
      ).toBe(true);
      expect((await request(`${misnamed.api}/health`)).status).toBe(200);
    } finally {
      await misnamed.close();
    }
  });
});

describe('plain-http issuers in production', () => {
  it('are refused, even on loopback (outside production a loopback one is allowed: oidc-loopback-http.test.ts)', async () => {
    const strict = await bootApp({ env: { ...oidcEnv(issuer.url), NODE_ENV: 'production' } });
    try {
      const response = await fetch(`${strict.api}/auth/sign-in/oidc`, { redirect: 'manual' });
      expect(response.headers.get('location')).toBe('/?authError=provider_unavailable');
      expect(strict.logs.some((line) => line.includes('only requests to HTTPS are allowed'))).toBe(true);
    } finally {
      await strict.close();
    }
  });
});
