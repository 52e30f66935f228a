import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../../helpers/app.js';
import { sql } from '../../helpers/auth.js';
import { locationOf, TestBrowser } from './browser.js';
import { startProviderStandIns, standInClient } from './provider-stand-ins.js';
import { finishOnApp, startSignIn } from './sign-in-flow.js';

const appBaseUrl = 'http://localhost:3000';
let standIns: Awaited<ReturnType<typeof startProviderStandIns>>;
let app: TestApp;

/** Sign-in start → the stand-in approves → the callback URL it sends back (not yet visited). */
async function approveAt(browser: TestBrowser, provider: 'github' | 'google', tamper?: (callback: URL) => void): Promise<URL> {
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
    standIns.accounts.github = { user: { id: 4242, login: 'octo', name: 'Octo Cat' }, emails: [{ email: 'octo@example.test', primary: true, verified: true }] };
  });

  it('signs in through the code grant and GitHub\'s user API, with state and PKCE S256 but no nonce', async () => {
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
    expect(await sql(app, `select subject from external_identity where provider = 'github'`)).toEqual([{ subject: '4242' }]);
  });

  it('refuses an account whose primary email is not verified', async () => {
    standIns.accounts.github = { user: { id: 77, login: 'shady', name: null }, emails: [{ email: 'octo@example.test', primary: true, verified: false }] };
    const browser = new TestBrowser();
    expect(await finishOnApp(app, browser, await approveAt(browser, 'github'))).toEqual({ location: '/?authError=email_not_verified', session: undefined });
  });

  it('lands on provider_denied when the person declines at GitHub', async () => {
    const browser = new TestBrowser();
    const declined = await approveAt(browser, 'github', (callback) => {
      callback.searchParams.delete('code');
      callback.searchParams.set('error', 'access_denied');
    });
    expect(await finishOnApp(app, browser, declined)).toEqual({ location: '/?authError=provider_denied', session: undefined });
  });

  it('refuses a tampered state and a replayed code', async () => {
    const browser = new TestBrowser();
    const tampered = await approveAt(browser, 'github', (callback) => callback.searchParams.set('state', 'forged'));
    expect((await finishOnApp(app, browser, tampered)).location).toBe('/?authError=invalid_state');

    const replaying = new TestBrowser();
    const callback = await approveAt(replaying, 'github');
    const stateCookie = replaying.cookie(app.url, 'bullpen_oauth')!;
    expect((await finishOnApp(app, replaying, callback)).session).toBeTruthy();
    const replay = await fetch(`${app.url}${callback.pathname}${callback.search}`, { redirect: 'manual', headers: { cookie: `bullpen_oauth=${stateCookie}` } });
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
    expect(await finishOnApp(app, browser, await approveAt(browser, 'google'))).toEqual({ location: `/?authError=${authError}`, session: undefined });
  });

  it('refuses an unverified email', async () => {
    standIns.accounts.google = { sub: '2000', email: 'nobody@example.test', email_verified: false, name: 'Nobody' };
    const browser = new TestBrowser();
    expect((await finishOnApp(app, browser, await approveAt(browser, 'google'))).location).toBe('/?authError=email_not_verified');
  });
});

describe('the sign-up policy applies to provider sign-ins', () => {
  let invited: TestApp;
  beforeAll(async () => {
    invited = await bootApp({
      env: { APP_BASE_URL: appBaseUrl, SERVICE_SIGNUP: 'invite', GITHUB_CLIENT_ID: standInClient.id, GITHUB_CLIENT_SECRET: standInClient.secret },
      app: { oauth: standIns.endpoints },
    });
    const first = await request(`${invited.api}/auth/sign-up/email`, { method: 'POST', body: { email: 'owner@example.test', password: 'correct horse battery', name: 'Owner' }, headers: { origin: appBaseUrl } });
    expect(first.status).toBe(200);
  });
  afterAll(() => invited?.close());

  it('refuses a new GitHub account under SERVICE_SIGNUP=invite, creating no user', async () => {
    standIns.accounts.github = { user: { id: 9001, login: 'stranger', name: 'Stranger' }, emails: [{ email: 'stranger@example.test', primary: true, verified: true }] };
    const browser = new TestBrowser();
    const authorize = await startSignIn(invited, browser, 'github');
    const callback = new URL(locationOf(await browser.request(authorize.href), authorize.href));
    expect(await finishOnApp(invited, browser, callback)).toEqual({ location: '/?authError=signup_refused', session: undefined });
    expect(await sql(invited, `select id from app_user where email = 'stranger@example.test'`)).toEqual([]);
  });
});
