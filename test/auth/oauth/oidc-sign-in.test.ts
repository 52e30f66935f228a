import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../../helpers/app.js';
import { signUp, sql } from '../../helpers/auth.js';
import { TestBrowser } from './browser.js';
import { startTestIssuer, type TestIssuer } from './oidc-issuer.js';
import { finishOnApp, loginAtIssuer, onApp, startSignIn } from './sign-in-flow.js';

const appBaseUrl = 'http://localhost:3000';
let issuer: TestIssuer;
let app: TestApp;

function oidcEnv(issuerUrl: string): Record<string, string> {
  return { APP_BASE_URL: appBaseUrl, OIDC_ISSUER_URL: issuerUrl, OIDC_CLIENT_ID: issuer.clientId, OIDC_CLIENT_SECRET: issuer.clientSecret, OIDC_DISPLAY_NAME: 'Acme SSO' };
}

function account(login: string, email: string | null, verified = true): string {
  issuer.accounts.set(login, { email, email_verified: verified, name: `${login} Example` });
  return login;
}

/** authorize → login and consent at the provider → the callback URL it sends back (not yet visited). */
async function providerRoundTrip(browser: TestBrowser, login: string, options: { redirectTo?: string; tamper?: (authorize: URL) => void } = {}) {
  const authorize = await startSignIn(app, browser, 'oidc', options.redirectTo);
  options.tamper?.(authorize);
  return loginAtIssuer(browser, authorize.href, login, appBaseUrl);
}

async function auditRows(errorCode: string) {
  return sql<{ actor_kind: string; outcome: string; action: string }>(app, `select actor_kind, outcome, action from audit_event where error_code = '${errorCode}'`);
}

beforeAll(async () => {
  issuer = await startTestIssuer(`${appBaseUrl}/api/auth/callback/oidc`);
  app = await bootApp({ env: oidcEnv(issuer.url), app: { oauth: { allowInsecureRequests: true } } });
});
afterAll(async () => {
  await app?.close();
  await issuer?.close();
});

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
    expect(session.body).toMatchObject({ authenticated: true, user: { email: 'alice@example.test', name: 'alice Example' }, role: 'owner' });
    const connections = await request(`${app.api}/connections`, { headers: { cookie: `bullpen_session=${landed.session}` } });
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
    const users = await Promise.all(sessions.map(async (id) => (await request(`${app.api}/session`, { headers: { cookie: `bullpen_session=${id}` } })).body.user.id));
    expect(users[0]).toBe(users[1]);
    expect(await sql(app, `select id from app_user where email = 'bob@example.test'`)).toHaveLength(1);
  });

  it('links a verified email to the existing email/password user', async () => {
    const existing = await signUp(app, 'carol');
    const browser = new TestBrowser();
    const landed = await finishOnApp(app, browser, await providerRoundTrip(browser, account('carol-sso', existing.email)));
    const session = await request(`${app.api}/session`, { headers: { cookie: `bullpen_session=${landed.session}` } });
    expect(session.body.user.id).toBe(existing.userId);
  });

  it('never links or creates with an unverified email, and audits the refusal', async () => {
    const existing = await signUp(app, 'dave');
    const browser = new TestBrowser();
    const landed = await finishOnApp(app, browser, await providerRoundTrip(browser, account('mallory', existing.email, false)));
    expect(landed).toEqual({ location: '/?authError=email_not_verified', session: undefined });
    expect(await sql(app, `select id from external_identity where subject = 'mallory'`)).toEqual([]);
    expect(await auditRows('email_not_verified')).toEqual([{ actor_kind: 'anonymous', outcome: 'denied', action: 'auth.oauth.signIn' }]);
  });

  it('refuses a tampered state', async () => {
    const browser = new TestBrowser();
    const callback = await providerRoundTrip(browser, account('erin', 'erin@example.test'));
    callback.searchParams.set('state', 'forged-state-value-0123456789');
    expect(await finishOnApp(app, browser, callback)).toEqual({ location: '/?authError=invalid_state', session: undefined });
  });

  it('refuses a callback without the state cookie of the browser that started', async () => {
    const callback = await providerRoundTrip(new TestBrowser(), account('frank', 'frank@example.test'));
    expect(await finishOnApp(app, new TestBrowser(), callback)).toEqual({ location: '/?authError=invalid_state', session: undefined });
  });

  it('refuses a replayed code', async () => {
    const browser = new TestBrowser();
    const callback = await providerRoundTrip(browser, account('grace', 'grace@example.test'));
    const stateCookie = browser.cookie(app.url, 'bullpen_oauth')!;
    expect((await finishOnApp(app, browser, callback)).session).toBeTruthy();
    const replay = await fetch(onApp(app, callback), { redirect: 'manual', headers: { cookie: `bullpen_oauth=${stateCookie}` } });
    expect(replay.headers.get('location')).toBe('/?authError=token_rejected');
    expect(replay.headers.getSetCookie().some((line) => line.startsWith('bullpen_session=') && !line.startsWith('bullpen_session=;'))).toBe(false);
  });

  it('refuses an ID token with another nonce', async () => {
    const browser = new TestBrowser();
    const callback = await providerRoundTrip(browser, account('heidi', 'heidi@example.test'), {
      tamper: (authorize) => authorize.searchParams.set('nonce', 'nonce-injected-by-an-attacker-0123'),
    });
    expect(await finishOnApp(app, browser, callback)).toEqual({ location: '/?authError=id_token_invalid', session: undefined });
  });

  it('refuses a code redeemed without the matching PKCE verifier', async () => {
    const browser = new TestBrowser();
    const callback = await providerRoundTrip(browser, account('ivan', 'ivan@example.test'), {
      tamper: (authorize) => authorize.searchParams.set('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'),
    });
    expect(await finishOnApp(app, browser, callback)).toEqual({ location: '/?authError=token_rejected', session: undefined });
  });

  it('refuses an answer naming another issuer', async () => {
    const browser = new TestBrowser();
    const callback = await providerRoundTrip(browser, account('judy', 'judy@example.test'));
    callback.searchParams.set('iss', 'http://evil.example');
    expect(await finishOnApp(app, browser, callback)).toEqual({ location: '/?authError=issuer_mismatch', session: undefined });
  });

  it('never redirects off-origin after signing in', async () => {
    for (const redirectTo of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
      const browser = new TestBrowser();
      const landed = await finishOnApp(app, browser, await providerRoundTrip(browser, account('kim', 'kim@example.test'), { redirectTo }));
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

describe('an issuer whose discovery names another issuer', () => {
  it('is refused at sign-in, without stopping the service', async () => {
    const misnamed = await bootApp({ env: oidcEnv(issuer.url.replace('127.0.0.1', 'localhost')), app: { oauth: { allowInsecureRequests: true } } });
    try {
      const response = await fetch(`${misnamed.api}/auth/sign-in/oidc`, { redirect: 'manual' });
      expect(response.headers.get('location')).toBe('/?authError=provider_unavailable');
      expect(misnamed.logs.some((line) => line.includes('cannot reach the oidc issuer: discovered metadata issuer does not match'))).toBe(true);
      expect((await request(`${misnamed.api}/health`)).status).toBe(200);
    } finally {
      await misnamed.close();
    }
  });
});

describe('plain-http issuers outside tests', () => {
  it('are refused: only the test option allows them', async () => {
    const strict = await bootApp({ env: oidcEnv(issuer.url) });
    try {
      const response = await fetch(`${strict.api}/auth/sign-in/oidc`, { redirect: 'manual' });
      expect(response.headers.get('location')).toBe('/?authError=provider_unavailable');
      expect(strict.logs.some((line) => line.includes('only requests to HTTPS are allowed'))).toBe(true);
    } finally {
      await strict.close();
    }
  });
});
