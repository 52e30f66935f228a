import { describe, expect, it } from 'vitest';
import { request } from '../../helpers/app.js';
import { asBrowser, bearer, signUp, sql, uniqueEmail, type SignedInUser } from '../../helpers/auth.js';
import { locationOf, TestBrowser } from './browser.js';
import { account, app, appBaseUrl, providerRoundTrip, useOidcApp } from './oidc-app.js';
import { finishOnApp, loginAtIssuer } from './sign-in-flow.js';

useOidcApp();

/** A browser holding `user`'s session, as after an email sign-in. */
function signedInBrowser(user: SignedInUser): TestBrowser {
  const browser = new TestBrowser();
  browser.set(app.url, 'bullpen_session', user.sessionId);
  return browser;
}

/** GET /api/auth/link/oidc → login and consent at the provider → the callback URL it sends back (not yet visited). */
async function linkRoundTrip(browser: TestBrowser, login: string, redirectTo?: string): Promise<URL> {
  const started = await browser.request(
    `${app.api}/auth/link/oidc${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ''}`,
  );
  expect(started.status).toBe(302);
  return loginAtIssuer(browser, locationOf(started, app.url), login, appBaseUrl);
}

async function signInWithSso(login: string) {
  const browser = new TestBrowser();
  return finishOnApp(app, browser, await providerRoundTrip(browser, login));
}

const sessionUserId = async (session: string | undefined) =>
  (await request(`${app.api}/session`, { headers: { cookie: `bullpen_session=${session}` } })).body.user?.id as
    | string
    | undefined;
const identitiesOf = (user: { cookie: string }) =>
  request(`${app.api}/auth/identities`, { headers: { cookie: user.cookie } });
const unlink = (user: SignedInUser, provider = 'oidc') =>
  request(`${app.api}/auth/identities/${provider}`, { method: 'DELETE', headers: asBrowser(app, user) });
const linkedSubjects = async (userId: string) =>
  (
    await sql<{ subject: string }>(
      app,
      `select subject from external_identity where user_id = '${userId}' order by subject`,
    )
  ).map((row) => row.subject);
const auditOf = (userId: string, action: string) =>
  sql<{ outcome: string; error_code: string | null; parameters: string }>(
    app,
    `select outcome, error_code, parameters from audit_event where user_id = '${userId}' and action = '${action}' order by at`,
  );

describe('a first sign-in with a provider never takes over an existing account (finding 3)', () => {
  it('an account made with someone else’s password before its owner came: SSO with its verified email neither links nor signs in', async () => {
    // The attacker signed up as Victor, with a password of their choosing.
    const preCreated = await signUp(app, 'victor');
    const landed = await signInWithSso(account('victor-sso', preCreated.email.toUpperCase()));
    expect(landed).toEqual({ location: '/?authError=account_exists', session: undefined });
    expect(await sql(app, `select id from external_identity where subject = 'victor-sso'`)).toEqual([]);
    expect(await sql(app, `select id from app_user where email = '${preCreated.email}'`)).toHaveLength(1);
    const refusals = await sql(
      app,
      `select actor_kind, outcome from audit_event where action = 'auth.oauth.signIn' and error_code = 'account_exists'`,
    );
    expect(refusals).toEqual([{ actor_kind: 'anonymous', outcome: 'denied' }]);
  });
});

describe('linking, signed in: GET /api/auth/link/{provider}', () => {
  it('links the provider account to the user who asked: it then signs in as them; audited', async () => {
    const user = await signUp(app, 'linker');
    const login = account('linker-sso', user.email);
    expect((await signInWithSso(login)).location).toBe('/?authError=account_exists');

    const browser = signedInBrowser(user);
    const landed = await finishOnApp(app, browser, await linkRoundTrip(browser, login, '/settings?tab=accounts'));
    expect(landed).toEqual({ location: '/settings?tab=accounts', session: user.sessionId });
    expect((await identitiesOf(user)).body).toEqual({
      passwordSet: true,
      identities: [{ provider: 'oidc', email: user.email, createdAt: expect.any(String), lastSignInAt: null }],
    });
    expect(await sessionUserId((await signInWithSso(login)).session)).toBe(user.userId);
    expect(await auditOf(user.userId, 'auth.oauth.link')).toEqual([
      { outcome: 'success', error_code: null, parameters: JSON.stringify({ provider: 'oidc', outcome: 'linked' }) },
    ]);
    // Linking it again changes nothing.
    const again = signedInBrowser(user);
    expect((await finishOnApp(app, again, await linkRoundTrip(again, login))).location).toBe('/');
    expect(await linkedSubjects(user.userId)).toEqual(['linker-sso']);
  });

  it('starts only for a signed-in session (not a token), from this app', async () => {
    const anonymous = await fetch(`${app.api}/auth/link/oidc`, { redirect: 'manual' });
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { code: string }).code).toBe('UNAUTHORIZED');
    const user = await signUp(app, 'token-holder');
    const token = (
      await request(`${app.api}/auth/tokens`, { method: 'POST', headers: asBrowser(app, user), body: { name: 'ci' } })
    ).body.token;
    expect((await request(`${app.api}/auth/link/oidc`, { headers: bearer(token) })).body.code).toBe('UNAUTHORIZED');
    for (const site of ['cross-site', 'same-site']) {
      const sent = await fetch(`${app.api}/auth/link/oidc`, {
        redirect: 'manual',
        headers: { cookie: user.cookie, 'sec-fetch-site': site },
      });
      expect(sent.status).toBe(403);
      expect(sent.headers.getSetCookie()).toEqual([]);
    }
    const fromApp = await fetch(`${app.api}/auth/link/oidc`, {
      redirect: 'manual',
      headers: { cookie: user.cookie, 'sec-fetch-site': 'same-origin' },
    });
    expect(fromApp.status).toBe(302);
    expect(
      (await fetch(`${app.api}/auth/link/github`, { redirect: 'manual', headers: { cookie: user.cookie } })).status,
    ).toBe(404);
  });

  it('finishes only with the session of the user who started it, else links nothing (audited for the starter)', async () => {
    const [starter, other] = [await signUp(app, 'starter'), await signUp(app, 'other')];
    const browser = signedInBrowser(starter);
    const callback = await linkRoundTrip(browser, account('swapped-sso', uniqueEmail('swapped')));
    browser.set(app.url, 'bullpen_session', other.sessionId);
    expect((await finishOnApp(app, browser, callback)).location).toBe('/?authError=link_session_mismatch');
    expect(await sql(app, `select user_id from external_identity where subject = 'swapped-sso'`)).toEqual([]);
    expect(await auditOf(starter.userId, 'auth.oauth.link')).toEqual([
      { outcome: 'denied', error_code: 'link_session_mismatch', parameters: JSON.stringify({ provider: 'oidc' }) },
    ]);
  });

  it('keeps the sign-in checks: a tampered state or nonce links nothing', async () => {
    const user = await signUp(app, 'checked');
    const browser = signedInBrowser(user);
    const tampered = await linkRoundTrip(browser, account('tampered-sso', uniqueEmail('tampered')));
    tampered.searchParams.set('state', 'forged-state-value-0123456789');
    expect((await finishOnApp(app, browser, tampered)).location).toBe('/?authError=invalid_state');

    const started = await browser.request(`${app.api}/auth/link/oidc`);
    const authorize = new URL(locationOf(started, app.url));
    authorize.searchParams.set('nonce', 'nonce-injected-by-an-attacker-0123');
    const wrongNonce = await loginAtIssuer(browser, authorize.href, 'tampered-sso', appBaseUrl);
    expect((await finishOnApp(app, browser, wrongNonce)).location).toBe('/?authError=id_token_invalid');
    expect(await linkedSubjects(user.userId)).toEqual([]);
  });

  it('refuses a provider account that signs in as someone else, and a second account of the same provider', async () => {
    const ssoUser = await signInWithSso(account('taken-sso', uniqueEmail('taken')));
    expect(ssoUser.session).toBeTruthy();
    const user = await signUp(app, 'grabber');
    const browser = signedInBrowser(user);
    expect((await finishOnApp(app, browser, await linkRoundTrip(browser, 'taken-sso'))).location).toBe(
      '/?authError=identity_in_use',
    );
    expect(await sessionUserId((await signInWithSso('taken-sso')).session)).toBe(await sessionUserId(ssoUser.session));

    const first = signedInBrowser(user);
    expect(
      (await finishOnApp(app, first, await linkRoundTrip(first, account('first-sso', uniqueEmail('first'))))).location,
    ).toBe('/');
    const second = signedInBrowser(user);
    expect(
      (await finishOnApp(app, second, await linkRoundTrip(second, account('second-sso', uniqueEmail('second')))))
        .location,
    ).toBe('/?authError=already_linked');
    expect(await linkedSubjects(user.userId)).toEqual(['first-sso']);
  });
});

describe('GET /api/auth/identities and DELETE /api/auth/identities/{provider}', () => {
  async function linkedUser(label: string): Promise<SignedInUser> {
    const user = await signUp(app, label);
    const browser = signedInBrowser(user);
    expect(
      (await finishOnApp(app, browser, await linkRoundTrip(browser, account(`${label}-sso`, user.email)))).location,
    ).toBe('/');
    return user;
  }

  it('unlinks your own account, audited; it then no longer signs in as you', async () => {
    const user = await linkedUser('unlinker');
    const answer = await unlink(user);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true, id: 'oidc', removed: 1 });
    expect((await identitiesOf(user)).body.identities).toEqual([]);
    expect((await signInWithSso('unlinker-sso')).location).toBe('/?authError=account_exists');
    expect(await auditOf(user.userId, 'auth.identity.unlink')).toEqual([
      { outcome: 'success', error_code: null, parameters: JSON.stringify({ provider: 'oidc', removed: 1 }) },
    ]);
  });

  it('refuses to unlink the only way a password-less account signs in: 409 LAST_SIGN_IN_METHOD, audited', async () => {
    const email = uniqueEmail('sso-only');
    const landed = await signInWithSso(account('sso-only', email));
    const user: SignedInUser = {
      userId: (await sessionUserId(landed.session))!,
      email,
      organizationId: '',
      cookie: `bullpen_session=${landed.session}`,
      sessionId: landed.session!,
    };
    expect((await identitiesOf(user)).body).toMatchObject({ passwordSet: false, identities: [{ provider: 'oidc' }] });
    const refused = await unlink(user);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('LAST_SIGN_IN_METHOD');
    expect(await linkedSubjects(user.userId)).toEqual(['sso-only']);
    expect(await auditOf(user.userId, 'auth.identity.unlink')).toEqual([
      { outcome: 'denied', error_code: 'LAST_SIGN_IN_METHOD', parameters: JSON.stringify({ provider: 'oidc' }) },
    ]);
  });

  it('acts on the caller’s own accounts only: another user, a token or no session changes nothing', async () => {
    const owner = await linkedUser('holder');
    const stranger = await signUp(app, 'stranger');
    expect((await unlink(stranger)).status).toBe(404);
    expect((await identitiesOf(stranger)).body).toEqual({ passwordSet: true, identities: [] });
    const token = (
      await request(`${app.api}/auth/tokens`, { method: 'POST', headers: asBrowser(app, owner), body: { name: 'ci' } })
    ).body.token;
    expect(
      (await request(`${app.api}/auth/identities/oidc`, { method: 'DELETE', headers: bearer(token) })).status,
    ).toBe(401);
    expect((await request(`${app.api}/auth/identities`, { headers: bearer(token) })).status).toBe(401);
    expect((await request(`${app.api}/auth/identities/oidc`, { method: 'DELETE' })).status).toBe(401);
    // The session cookie without this app's Origin: the CSRF rule.
    expect(
      (await request(`${app.api}/auth/identities/oidc`, { method: 'DELETE', headers: { cookie: owner.cookie } }))
        .status,
    ).toBe(403);
    expect((await unlink(owner, 'facebook')).status).toBe(400);
    expect(await linkedSubjects(owner.userId)).toEqual(['holder-sso']);
  });
});
