import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, persistenceKinds, request, type TestApp } from '../helpers/app.js';
import {
  asBrowser,
  asDate,
  sessionCookieOf,
  signUp,
  sql,
  sqlTime,
  testPassword,
  uniqueEmail,
} from '../helpers/auth.js';
import { app, day, getSession, hashOf, signIn, useSessionApp } from './support/session-app.js';

describe.each(persistenceKinds)('sessions (%s persistence)', (persistence) => {
  useSessionApp(persistence);

  it('signs up (SERVICE_SIGNUP=open, after the first user): the user, a personal organization they own, and an HttpOnly SameSite=Lax cookie', async () => {
    await signUp(app, 'first');
    const email = uniqueEmail('ada');
    const response = await request(`${app.api}/auth/sign-up/email`, {
      method: 'POST',
      body: { email: email.toUpperCase(), password: testPassword, name: 'Ada' },
    });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ email, name: 'Ada' });
    const line = response.headers.getSetCookie().find((cookie) => cookie.startsWith('bullpen_session='))!;
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).not.toMatch(/Secure/i);
    expect(line).toMatch(/Max-Age=2592000/);
    const snapshot = await request(`${app.api}/session`, { headers: { cookie: sessionCookieOf(response.headers)! } });
    expect(snapshot.body).toMatchObject({ authenticated: true, authless: false, role: 'owner', user: { email } });
    expect(snapshot.body.activeOrganization.id).toBe(response.body.session.activeOrganizationId);
    expect(snapshot.body.memberships).toEqual([
      { organizationId: response.body.session.activeOrganizationId, name: "Ada's organization", role: 'owner' },
    ]);
  });

  it('refuses a duplicate email (any case) with 409 and a password under 10 characters with 400', async () => {
    const user = await signUp(app);
    const duplicate = await request(`${app.api}/auth/sign-up/email`, {
      method: 'POST',
      body: { email: user.email.toUpperCase(), password: testPassword, name: 'x' },
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('CONFLICT');
    const weak = await request(`${app.api}/auth/sign-up/email`, {
      method: 'POST',
      body: { email: uniqueEmail(), password: '123456789', name: 'x' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.message).toContain('password');
  });

  it('signs in; a wrong password and an unknown email get the same 401', async () => {
    const user = await signUp(app);
    const ok = await signIn(user.email, testPassword);
    expect(ok.status).toBe(200);
    expect(sessionCookieOf(ok.headers)).toMatch(/^bullpen_session=\w+/);
    const wrong = await signIn(user.email, 'not the password');
    const unknown = await signIn(uniqueEmail('nobody'), testPassword);
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.message).toBe('Invalid email or password');
  });

  it('gives a new session id at every sign-in and ends the one the browser presented (session fixation)', async () => {
    const user = await signUp(app);
    const again = await request(`${app.api}/auth/sign-in/email`, {
      method: 'POST',
      headers: asBrowser(app, user),
      body: { email: user.email, password: testPassword },
    });
    expect(again.status).toBe(200);
    const rotated = sessionCookieOf(again.headers)!;
    expect(rotated).toMatch(/^bullpen_session=\w+/);
    expect(rotated).not.toBe(user.cookie);
    expect((await getSession(user.cookie)).body).toBeNull();
    expect((await getSession(rotated)).body.user.id).toBe(user.userId);
    // A value planted before sign-in (by a sibling subdomain, say) is never adopted.
    const planted = 'bullpen_session=plantedbyanattacker0000000000000';
    const fresh = await request(`${app.api}/auth/sign-in/email`, {
      method: 'POST',
      headers: asBrowser(app, { cookie: planted }),
      body: { email: user.email, password: testPassword },
    });
    expect(fresh.status).toBe(200);
    expect(sessionCookieOf(fresh.headers)).not.toBe(planted);
    expect((await getSession(planted)).body).toBeNull();
    expect((await getSession(sessionCookieOf(fresh.headers)!)).body.user.id).toBe(user.userId);
  });

  it('get-session answers null when signed out and the user and session when signed in', async () => {
    expect(await getSession()).toMatchObject({ status: 200, body: null });
    const user = await signUp(app);
    const { status, body } = await getSession(user.cookie);
    expect(status).toBe(200);
    expect(body.user).toMatchObject({ id: user.userId, email: user.email });
    expect(body.session.activeOrganizationId).toBe(user.organizationId);
    expect(JSON.stringify(body)).not.toContain(user.sessionId);
  });

  it('signs out: the session ends and the cookie is cleared', async () => {
    const user = await signUp(app);
    const response = await request(`${app.api}/auth/sign-out`, {
      method: 'POST',
      headers: asBrowser(app, user),
      body: {},
    });
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().find((line) => line.startsWith('bullpen_session='))).toMatch(
      /^bullpen_session=;.*Max-Age=0/,
    );
    expect((await getSession(user.cookie)).body).toBeNull();
    expect(await sql(app, `select * from "auth_session" where "user_id" = '${user.userId}'`)).toEqual([]);
  });

  it('stores only a keyed SHA-256 hash of the session id', async () => {
    const user = await signUp(app);
    const rows = await sql<{ id_hash: string }>(
      app,
      `select "id_hash" from "auth_session" where "user_id" = '${user.userId}'`,
    );
    expect(rows).toEqual([{ id_hash: hashOf(user.sessionId) }]);
    const everything = JSON.stringify(await sql(app, 'select * from "auth_session"'));
    expect(everything).not.toContain(user.sessionId);
  });

  it('never stores the password itself', async () => {
    const user = await signUp(app);
    const [row] = await sql<{ password_hash: string }>(
      app,
      `select "password_hash" from "app_user" where "id" = '${user.userId}'`,
    );
    expect(row!.password_hash).toMatch(/^scrypt\$/);
    expect(row!.password_hash).not.toContain(testPassword);
  });

  it('expires sessions: an expired one is refused and its row deleted', async () => {
    const user = await signUp(app);
    await sql(
      app,
      `update "auth_session" set "expires_at" = ${sqlTime(app, new Date(Date.now() - 1000))} where "user_id" = '${user.userId}'`,
    );
    expect((await getSession(user.cookie)).body).toBeNull();
    const organizations = await request(`${app.api}/organizations`, { headers: { cookie: user.cookie } });
    expect(organizations.status).toBe(401);
    expect(await sql(app, `select * from "auth_session" where "user_id" = '${user.userId}'`)).toEqual([]);
  });

  it('slides: a session in the second half of its 30 days is extended and its cookie refreshed', async () => {
    const user = await signUp(app);
    await sql(
      app,
      `update "auth_session" set "expires_at" = ${sqlTime(app, new Date(Date.now() + 10 * day))} where "user_id" = '${user.userId}'`,
    );
    const response = await getSession(user.cookie);
    expect(sessionCookieOf(response.headers)).toBe(user.cookie);
    const [row] = await sql<{ expires_at: unknown }>(
      app,
      `select "expires_at" from "auth_session" where "user_id" = '${user.userId}'`,
    );
    expect(asDate(row!.expires_at).getTime()).toBeGreaterThan(Date.now() + 29 * day);
    // A session in its first half is left alone: no cookie.
    expect(sessionCookieOf((await getSession(user.cookie)).headers)).toBeNull();
  });

  it('GET /api/app/config updates the signed-in user’s lastSignInAt and still answers signed out', async () => {
    const user = await signUp(app);
    await sql(app, `update "app_user" set "last_sign_in_at" = null where "id" = '${user.userId}'`);
    expect((await request(`${app.api}/app/config`, { headers: { cookie: user.cookie } })).status).toBe(200);
    const [row] = await sql<{ last_sign_in_at: unknown }>(
      app,
      `select "last_sign_in_at" from "app_user" where "id" = '${user.userId}'`,
    );
    expect(Date.now() - asDate(row!.last_sign_in_at).getTime()).toBeLessThan(60_000);
    expect((await request(`${app.api}/app/config`, { headers: { cookie: 'bullpen_session=bogus' } })).status).toBe(200);
  });
});

describe('cookies behind https', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({ env: { APP_BASE_URL: 'https://bullpen.example.test' } });
  });
  afterAll(() => app.close());

  it('are Secure when APP_BASE_URL is https', async () => {
    const response = await request(`${app.api}/auth/sign-up/email`, {
      method: 'POST',
      body: { email: uniqueEmail(), password: testPassword, name: 'S' },
    });
    const line = response.headers.getSetCookie().find((cookie) => cookie.startsWith('bullpen_session='))!;
    expect(line).toMatch(/; Secure/i);
    expect(line).toMatch(/HttpOnly/i);
  });
});
