import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPasswordResetLink } from '../../server/auth/password-reset.js';
import { bootApp, persistenceKinds, request, type TestApp } from '../helpers/app.js';
import { asBrowser, bearer, sessionCookieOf, signUp, sql, testPassword, type SignedInUser } from '../helpers/auth.js';

const newPassword = 'a brand new passphrase';
const concurrentUses = 10;

describe.each(persistenceKinds)('credentials lifecycle (%s persistence)', (persistence) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({ persistence });
  });
  afterAll(() => app.close());

  /** A reset link made on the server, as `npm run admin -- reset-password` does: independent of who may ask for one. */
  const resetToken = async (user: SignedInUser) =>
    (
      await createPasswordResetLink({
        em: app.services.persistence.fork(),
        hash: app.services.auth.hash,
        appBaseUrl: app.services.auth.appBaseUrl,
        userId: user.userId,
        createdByUserId: null,
      })
    ).token;
  const reset = (token: string, password = newPassword) =>
    request(`${app.api}/auth/reset-password`, { method: 'POST', body: { token, newPassword: password } });
  const signIn = (email: string, password: string) =>
    request(`${app.api}/auth/sign-in/email`, { method: 'POST', body: { email, password } });
  const secondSession = async (user: SignedInUser): Promise<SignedInUser> => {
    const cookie = sessionCookieOf((await signIn(user.email, testPassword)).headers)!;
    return { ...user, cookie, sessionId: cookie.split('=')[1]! };
  };
  const tokenOf = async (user: SignedInUser, name: string) =>
    (await request(`${app.api}/auth/tokens`, { method: 'POST', headers: asBrowser(app, user), body: { name } })).body
      .token as string;
  const tokenWorks = async (token: string) =>
    (await request(`${app.api}/organizations`, { headers: bearer(token) })).status === 200;
  const sessionWorks = async (cookie: string) =>
    (await request(`${app.api}/organizations`, { headers: { cookie } })).status === 200;

  it(`consumes a reset token exactly once when ${concurrentUses} uses race`, async () => {
    const user = await signUp(app, 'racer');
    const token = await resetToken(user);
    const passwords = Array.from({ length: concurrentUses }, (_, index) => `racing passphrase number ${index}`);
    const answers = await Promise.all(passwords.map((password) => reset(token, password)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(concurrentUses - 1);
    for (const answer of answers.filter((entry) => entry.status === 400))
      expect(answer.body.code).toBe('RESET_LINK_INVALID');
    // The password that holds is the winner's, and only it signs in.
    const signIns = await Promise.all(passwords.map(async (password) => (await signIn(user.email, password)).status));
    expect(signIns.filter((status) => status === 200)).toHaveLength(1);
    expect(signIns[statuses.indexOf(200)]).toBe(200);
    const successes = await sql(
      app,
      `select "id" from "audit_event" where "action" = 'auth.reset-password' and "user_id" = '${user.userId}' and "outcome" = 'success'`,
    );
    expect(successes).toHaveLength(1);
  });

  it('a reset ends every session of the user and revokes their API tokens', async () => {
    const user = await signUp(app, 'reset');
    const other = await secondSession(user);
    const tokens = [await tokenOf(user, 'ci'), await tokenOf(user, 'deploy')];
    const bystander = await signUp(app, 'bystander');
    const bystanderToken = await tokenOf(bystander, 'theirs');
    expect(await tokenWorks(tokens[0]!)).toBe(true);

    expect((await reset(await resetToken(user))).status).toBe(200);
    expect(await sessionWorks(user.cookie)).toBe(false);
    expect(await sessionWorks(other.cookie)).toBe(false);
    for (const token of tokens) expect(await tokenWorks(token)).toBe(false);
    expect(await sql(app, `select "id" from "api_token" where "created_by_user_id" = '${user.userId}'`)).toEqual([]);
    expect(await tokenWorks(bystanderToken)).toBe(true);
    expect(await sessionWorks(bystander.cookie)).toBe(true);
  });

  it('a password change ends the other sessions and keeps API tokens unless revokeTokens is true', async () => {
    const user = await signUp(app, 'changer');
    const token = await tokenOf(user, 'ci');
    const other = await secondSession(user);
    const change = (body: Record<string, unknown>) =>
      request(`${app.api}/auth/change-password`, { method: 'POST', headers: asBrowser(app, user), body });

    const kept = await change({ currentPassword: testPassword, newPassword });
    expect(kept.body).toEqual({ success: true, endedSessions: 1, revokedTokens: 0 });
    expect(await sessionWorks(other.cookie)).toBe(false);
    expect(await tokenWorks(token)).toBe(true);

    const revoked = await change({ currentPassword: newPassword, newPassword: testPassword, revokeTokens: true });
    expect(revoked.body).toEqual({ success: true, endedSessions: 0, revokedTokens: 1 });
    expect(await tokenWorks(token)).toBe(false);
    expect(await sessionWorks(user.cookie)).toBe(true);
  });

  it('refuses a revokeTokens that is not a boolean, changing nothing', async () => {
    const user = await signUp(app, 'strict');
    const token = await tokenOf(user, 'ci');
    const answer = await request(`${app.api}/auth/change-password`, {
      method: 'POST',
      headers: asBrowser(app, user),
      body: { currentPassword: testPassword, newPassword, revokeTokens: 'yes' },
    });
    expect(answer.status).toBe(400);
    expect(await tokenWorks(token)).toBe(true);
    expect((await signIn(user.email, testPassword)).status).toBe(200);
  });
});
