import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../../helpers/app.js';
import { asBrowser, signUp, sql, uniqueEmail, type SignedInUser } from '../../helpers/auth.js';
import { locationOf, TestBrowser } from './browser.js';
import { startProviderStandIns, standInClient } from './provider-stand-ins.js';
import { finishOnApp, startSignIn } from './sign-in-flow.js';

const appBaseUrl = 'http://localhost:3000';
let standIns: Awaited<ReturnType<typeof startProviderStandIns>>;
let app: TestApp;

/** Sign-in start → the stand-in approves → the callback URL it sends back (not yet visited). */
async function approveAt(
  browser: TestBrowser,
  provider: 'github' | 'google',
  tamper?: (callback: URL) => void,
): Promise<URL> {
  const authorize = await startSignIn(app, browser, provider);
  const approved = await browser.request(authorize.href);
  const callback = new URL(locationOf(approved, authorize.href));
  tamper?.(callback);
  return callback;
}

async function sessionUser(session: string | undefined) {
  return (await request(`${app.api}/session`, { headers: { cookie: `bullpen_session=${session}` } })).body.user;
}

beforeAll(async () => {
  standIns = await startProviderStandIns();
  app = await bootApp({
    env: {
      APP_BASE_URL: appBaseUrl,
      GITHUB_CLIENT_ID: standInClient.id,
      GITHUB_CLIENT_SECRET: standInClient.secret,
      GOOGLE_CLIENT_ID: standInClient.id,
      GOOGLE_CLIENT_SECRET: standInClient.secret,
    },
    app: { oauth: standIns.endpoints },
  });
});
afterAll(async () => {
  await app?.close();
  await standIns?.close();
});

describe('GitHub', () => {
  beforeEach(() => {
    standIns.accounts.github = {
      user: { id: 4242, login: 'octo', name: 'Octo Cat' },
      emails: [{ email: 'octo@example.test', primary: true, verified: true }],
    };
  });

  it("signs in through the code grant and GitHub's user API, with state and PKCE S256 but no nonce", async () => {
    const browser = new TestBrowser();
    const authorize = await startSignIn(app, browser, 'github');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${appBaseUrl}/api/auth/callback/github`);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('scope')).toBe('read:user user:email');
    expect(authorize.searchParams.get('nonce')).toBeNull();
    const callback = new URL(locationOf(await browser.request(authorize.href), authorize.href));
    const landed = await finishOnApp(app, browser, callback);
    expect(landed.location).toBe('/');
    expect(await sessionUser(landed.session)).toMatchObject({ email: 'octo@example.test', name: 'Octo Cat' });
    expect(await sql(app, `select subject from external_identity where provider = 'github'`)).toEqual([
      { subject: '4242' },
    ]);
  });

  it('refuses an account whose primary email is not verified', async () => {
    standIns.accounts.github = {
      user: { id: 77, login: 'shady', name: null },
      emails: [{ email: 'octo@example.test', primary: true, verified: false }],
    };
    const browser = new TestBrowser();
    expect(await finishOnApp(app, browser, await approveAt(browser, 'github'))).toEqual({
      location: '/?authError=email_not_verified',
      session: undefined,
    });
  });

  it('lands on provider_denied when the person declines at GitHub', async () => {
    const browser = new TestBrowser();
    const declined = await approveAt(browser, 'github', (callback) => {
      callback.searchParams.delete('code');
      callback.searchParams.set('error', 'access_denied');
    });
    expect(await finishOnApp(app, browser, declined)).toEqual({
      location: '/?authError=provider_denied',
      session: undefined,
    });
  });

  it('refuses a tampered state and a replayed code', async () => {
    const browser = new TestBrowser();
    const tampered = await approveAt(browser, 'github', (callback) => callback.searchParams.set('state', 'forged'));
    expect((await finishOnApp(app, browser, tampered)).location).toBe('/?authError=invalid_state');

    const replaying = new TestBrowser();
    const callback = await approveAt(replaying, 'github');
    const stateCookie = replaying.cookie(app.url, 'bullpen_oauth')!;
    expect((await finishOnApp(app, replaying, callback)).session).toBeTruthy();
    const replay = await fetch(`${app.url}${callback.pathname}${callback.search}`, {
      redirect: 'manual',
      headers: { cookie: `bullpen_oauth=${stateCookie}` },
    });
    expect(replay.headers.get('location')).toBe('/?authError=token_rejected');
  });
});

describe('Google', () => {
  beforeEach(() => {
    standIns.accounts.google = { sub: '1099', email: 'gina@example.test', email_verified: true, name: 'Gina' };
    standIns.accounts.googleIdToken = {};
  });

  it('signs in with a signed ID token carrying the nonce', async () => {
    const browser = new TestBrowser();
    const authorize = await startSignIn(app, browser, 'google');
    expect(authorize.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    const callback = new URL(locationOf(await browser.request(authorize.href), authorize.href));
    const landed = await finishOnApp(app, browser, callback);
    expect(await sessionUser(landed.session)).toMatchObject({ email: 'gina@example.test', name: 'Gina' });
  });

  it.each([
    ['another audience', { aud: 'someone-else' }, 'id_token_invalid'],
    ['another issuer', { iss: 'https://accounts.evil.example' }, 'issuer_mismatch'],
    ['a signature from another key', { signWithOtherKey: true }, 'id_token_invalid'],
  ])('refuses an ID token with %s', async (_label, lie, authError) => {
    standIns.accounts.googleIdToken = lie;
    const browser = new TestBrowser();
    expect(await finishOnApp(app, browser, await approveAt(browser, 'google'))).toEqual({
      location: `/?authError=${authError}`,
      session: undefined,
    });
  });

  it('refuses an unverified email', async () => {
    standIns.accounts.google = { sub: '2000', email: 'nobody@example.test', email_verified: false, name: 'Nobody' };
    const browser = new TestBrowser();
    expect((await finishOnApp(app, browser, await approveAt(browser, 'google'))).location).toBe(
      '/?authError=email_not_verified',
    );
  });
});

describe('existing accounts and linking', () => {
  /** Link start (signed in as `user`'s session) → the stand-in approves → the callback, visited. */
  async function linkAs(user: { sessionId: string }, provider: 'github' | 'google') {
    const browser = new TestBrowser();
    browser.set(app.url, 'bullpen_session', user.sessionId);
    const started = await browser.request(`${app.api}/auth/link/${provider}`);
    const approved = await browser.request(locationOf(started, app.url));
    return finishOnApp(app, browser, new URL(locationOf(approved, app.url)));
  }
  const unlink = (user: SignedInUser, provider: string) =>
    request(`${app.api}/auth/identities/${provider}`, { method: 'DELETE', headers: asBrowser(app, user) });

  it('a first GitHub sign-in whose verified email has an account is refused (account_exists), then linked by its owner', async () => {
    const user = await signUp(app, 'octo-owner');
    standIns.accounts.github = {
      user: { id: 5150, login: 'octo-owner', name: null },
      emails: [{ email: user.email, primary: true, verified: true }],
    };
    const refused = new TestBrowser();
    expect(await finishOnApp(app, refused, await approveAt(refused, 'github'))).toEqual({
      location: '/?authError=account_exists',
      session: undefined,
    });
    expect(await sql(app, `select id from external_identity where subject = '5150'`)).toEqual([]);
    expect((await linkAs(user, 'github')).location).toBe('/');
    const signedIn = new TestBrowser();
    expect(
      (await sessionUser((await finishOnApp(app, signedIn, await approveAt(signedIn, 'github'))).session)).id,
    ).toBe(user.userId);
  });

  it('a password-less account may unlink one provider while another remains, never the last', async () => {
    const email = uniqueEmail('sso-only');
    standIns.accounts.google = { sub: '7007', email, email_verified: true, name: 'Only SSO' };
    const first = new TestBrowser();
    const landed = await finishOnApp(app, first, await approveAt(first, 'google'));
    const user: SignedInUser = {
      userId: (await sessionUser(landed.session)).id,
      email,
      organizationId: '',
      cookie: `bullpen_session=${landed.session}`,
      sessionId: landed.session!,
    };
    standIns.accounts.github = {
      user: { id: 7008, login: 'only-sso', name: null },
      emails: [{ email: uniqueEmail('elsewhere'), primary: true, verified: false }],
    };
    expect((await linkAs(user, 'github')).location).toBe('/');
    expect(
      (await request(`${app.api}/auth/identities`, { headers: { cookie: user.cookie } })).body.identities.map(
        (entry: { provider: string }) => entry.provider,
      ),
    ).toEqual(['google', 'github']);
    expect((await unlink(user, 'google')).status).toBe(200);
    const last = await unlink(user, 'github');
    expect(last.status).toBe(409);
    expect(last.body.code).toBe('LAST_SIGN_IN_METHOD');
    expect(await sql(app, `select provider from external_identity where user_id = '${user.userId}'`)).toEqual([
      { provider: 'github' },
    ]);
  });
});

describe('the sign-up policy applies to provider sign-ins', () => {
  let invited: TestApp;
  beforeAll(async () => {
    invited = await bootApp({
      env: {
        APP_BASE_URL: appBaseUrl,
        SERVICE_SIGNUP: 'invite',
        GITHUB_CLIENT_ID: standInClient.id,
        GITHUB_CLIENT_SECRET: standInClient.secret,
      },
      app: { oauth: standIns.endpoints },
    });
    const first = await request(`${invited.api}/auth/sign-up/email`, {
      method: 'POST',
      body: { email: 'owner@example.test', password: 'correct horse battery', name: 'Owner' },
      headers: { origin: appBaseUrl },
    });
    expect(first.status).toBe(200);
  });
  afterAll(() => invited?.close());

  it('refuses a new GitHub account under SERVICE_SIGNUP=invite, creating no user', async () => {
    standIns.accounts.github = {
      user: { id: 9001, login: 'stranger', name: 'Stranger' },
      emails: [{ email: 'stranger@example.test', primary: true, verified: true }],
    };
    const browser = new TestBrowser();
    const authorize = await startSignIn(invited, browser, 'github');
    const callback = new URL(locationOf(await browser.request(authorize.href), authorize.href));
    expect(await finishOnApp(invited, browser, callback)).toEqual({
      location: '/?authError=signup_refused',
      session: undefined,
    });
    expect(await sql(invited, `select id from app_user where email = 'stranger@example.test'`)).toEqual([]);
  });
});
