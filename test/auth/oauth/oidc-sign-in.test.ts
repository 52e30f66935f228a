import { describe, expect, it } from 'vitest';
import { request } from '../../helpers/app.js';
import { signUp, sql } from '../../helpers/auth.js';
import { TestBrowser } from './browser.js';
import { account, app, appBaseUrl, issuer, providerRoundTrip, useOidcApp } from './oidc-app.js';
import { finishOnApp, startSignIn } from './sign-in-flow.js';

useOidcApp();

async function auditRows(errorCode: string) {
  return sql<{ actor_kind: string; outcome: string; action: string }>(
    app,
    `select actor_kind, outcome, action from audit_event where error_code = '${errorCode}'`,
  );
}

describe('sign-in with an OpenID Connect provider', () => {
  it('lists the provider', async () => {
    const response = await request(`${app.api}/auth/providers`);
    expect(response.body).toEqual({ providers: [{ id: 'oidc', name: 'Acme SSO', type: 'oidc' }], emailPassword: true });
  });

  it('redirects to the provider with state, PKCE S256, nonce and the exact redirect_uri', async () => {
    const authorize = await startSignIn(app, new TestBrowser(), 'oidc');
    expect(authorize.origin).toBe(issuer.url);
    const params = authorize.searchParams;
    expect(params.get('redirect_uri')).toBe(`${appBaseUrl}/api/auth/callback/oidc`);
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(params.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(params.get('nonce')).toMatch(/^[\w-]{20,}$/);
    expect(params.get('scope')).toBe('openid email profile');
    expect(params.get('client_id')).toBe(issuer.clientId);
  });

  it('goes the whole way: provider login and consent, callback, a session that works on a protected route', async () => {
    const browser = new TestBrowser();
    const login = account('alice', 'Alice@Example.test');
    const callback = await providerRoundTrip(browser, login, { redirectTo: '/queues?tab=failed' });
    expect(callback.searchParams.get('code')).toBeTruthy();
    const landed = await finishOnApp(app, browser, callback);
    expect(landed.location).toBe('/queues?tab=failed');
    expect(landed.session).toBeTruthy();
    const session = await request(`${app.api}/session`, { headers: { cookie: `bullpen_session=${landed.session}` } });
    expect(session.body).toMatchObject({
      authenticated: true,
      user: { email: 'alice@example.test', name: 'alice Example' },
      role: 'owner',
    });
    const connections = await request(`${app.api}/connections`, {
      headers: { cookie: `bullpen_session=${landed.session}` },
    });
    expect(connections.status).toBe(200);
    const identities = await sql(app, `select provider, subject from external_identity where subject = 'alice'`);
    expect(identities).toEqual([{ provider: 'oidc', subject: 'alice' }]);
    // The attempt's cookie is gone once used.
    expect(browser.cookie(app.url, 'bullpen_oauth')).toBeUndefined();
  });

  it('signs the same provider account in as the same user next time', async () => {
    const login = account('bob', 'bob@example.test');
    const sessions = [];
    for (let i = 0; i < 2; i += 1) {
      const browser = new TestBrowser();
      sessions.push((await finishOnApp(app, browser, await providerRoundTrip(browser, login))).session);
    }
    const users = await Promise.all(
      sessions.map(
        async (id) =>
          (await request(`${app.api}/session`, { headers: { cookie: `bullpen_session=${id}` } })).body.user.id,
      ),
    );
    expect(users[0]).toBe(users[1]);
    expect(await sql(app, `select id from app_user where email = 'bob@example.test'`)).toHaveLength(1);
  });

  it('never links a verified email to the existing email/password user: account_exists (linking: account-linking.test.ts)', async () => {
    const existing = await signUp(app, 'carol');
    const browser = new TestBrowser();
    const landed = await finishOnApp(
      app,
      browser,
      await providerRoundTrip(browser, account('carol-sso', existing.email)),
    );
    expect(landed).toEqual({ location: '/?authError=account_exists', session: undefined });
    expect(await sql(app, `select id from external_identity where subject = 'carol-sso'`)).toEqual([]);
  });

  it('never links or creates with an unverified email, and audits the refusal', async () => {
    const existing = await signUp(app, 'dave');
    const browser = new TestBrowser();
    const landed = await finishOnApp(
      app,
      browser,
      await providerRoundTrip(browser, account('mallory', existing.email, false)),
    );
    expect(landed).toEqual({ location: '/?authError=email_not_verified', session: undefined });
    expect(await sql(app, `select id from external_identity where subject = 'mallory'`)).toEqual([]);
    expect(await auditRows('email_not_verified')).toEqual([
      { actor_kind: 'anonymous', outcome: 'denied', action: 'auth.oauth.signIn' },
    ]);
  });

  it('never redirects off-origin after signing in', async () => {
    for (const redirectTo of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
      const browser = new TestBrowser();
      const landed = await finishOnApp(
        app,
        browser,
        await providerRoundTrip(browser, account('kim', 'kim@example.test'), { redirectTo }),
      );
      expect(landed.location).toBe('/');
      expect(landed.session).toBeTruthy();
    }
  });

  it('answers 404 for a provider that is not configured', async () => {
    const response = await request(`${app.api}/auth/sign-in/github`);
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('NOT_FOUND');
  });
});
