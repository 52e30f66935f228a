import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, testAuthSecret, type TestApp } from '../helpers/app.js';
import { asBrowser, bearer, sessionCookieOf, signUp, testPassword, type SignedInUser } from '../helpers/auth.js';
import { testEncryptionKey } from '../helpers/connections.js';

/**
 * Every secret the service handles goes through its flows at LOG_LEVEL=debug
 * (every request logged), and none reaches a log line: account passwords
 * (sign-up, a wrong and a right sign-in, change, reset), session ids, API
 * tokens, invitation and reset tokens (in paths and bodies), a store password,
 * AUTH_SECRET and the encryption key. Issue 21's attack found none in 16.5k
 * lines; this keeps it so.
 */
describe('no secret in a log line', () => {
  let app: TestApp;
  let owner: SignedInUser;
  let member: SignedInUser;
  const secrets = new Map<string, string>([
    ['AUTH_SECRET', testAuthSecret],
    ['SERVICE_ENCRYPTION_KEY', testEncryptionKey],
    ['sign-up password', testPassword],
  ]);
  const keep = (what: string, value: string | null | undefined) => {
    expect(value, what).toBeTruthy();
    secrets.set(what, value!.replace(/^bullpen_session=/, ''));
  };

  beforeAll(async () => {
    app = await bootApp({ env: { LOG_LEVEL: 'debug' } });
    owner = await signUp(app, 'log-owner');
    member = await signUp(app, 'log-member');
    keep('owner session', owner.cookie);
    keep('member session', member.cookie);
  });
  afterAll(() => app.close());

  const call = (
    user: { cookie: string } | null,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => request(`${app.api}${path}`, { method, headers: user ? asBrowser(app, user, headers) : headers, body });

  it('runs every flow that carries a secret', async () => {
    const wrongPassword = 'not-the-password-Zx81';
    keep('wrong password', wrongPassword);
    expect(
      (await call(null, 'POST', '/auth/sign-in/email', { email: owner.email, password: wrongPassword })).status,
    ).toBe(401);
    const signedIn = await call(owner, 'POST', '/auth/sign-in/email', { email: owner.email, password: testPassword });
    expect(signedIn.status).toBe(200);
    keep('rotated session', sessionCookieOf(signedIn.headers));
    const ownerNow = { cookie: sessionCookieOf(signedIn.headers)! };

    const token = await call(ownerNow, 'POST', '/auth/tokens', { name: 'ci' });
    keep('API token', token.body.token);
    expect((await call(null, 'GET', '/organizations', undefined, bearer(token.body.token))).status).toBe(200);
    expect((await call(null, 'GET', '/organizations', undefined, bearer(`${token.body.token}x`))).status).toBe(401);

    const invitation = await call(ownerNow, 'POST', `/organizations/${owner.organizationId}/invitations`, {
      email: member.email,
      role: 'operator',
    });
    expect(invitation.status).toBe(201);
    keep('invitation token', invitation.body.token);
    expect((await call(null, 'GET', `/invitations/${invitation.body.token}`)).status).toBe(200);
    expect((await call(member, 'POST', `/invitations/${invitation.body.token}/accept`, {})).status).toBe(200);

    const reset = await call(
      ownerNow,
      'POST',
      `/organizations/${owner.organizationId}/members/${member.userId}/password-reset`,
      {},
    );
    keep('reset token', reset.body.token);
    const resetPassword = 'reset-Password-Qw93';
    keep('reset password', resetPassword);
    expect(
      (await call(null, 'POST', '/auth/reset-password', { token: reset.body.token, newPassword: resetPassword }))
        .status,
    ).toBe(200);

    const changedPassword = 'changed-Password-Lp27';
    keep('changed password', changedPassword);
    expect(
      (
        await call(ownerNow, 'POST', '/auth/change-password', {
          currentPassword: testPassword,
          newPassword: changedPassword,
        })
      ).status,
    ).toBe(200);

    const storePassword = 'store-Pa55word-Kv61';
    keep('store password', storePassword);
    const url = `redis://:${storePassword}@127.0.0.1:6379/0`;
    await call(ownerNow, 'POST', '/connections/test', { url });
    expect((await call(ownerNow, 'POST', '/connections', { name: 'with-password', url })).status).toBe(201);
  });

  it('finds none of them in the log (raw or percent-encoded)', () => {
    expect(app.logs.length).toBeGreaterThan(20);
    const found = [...secrets].flatMap(([what, value]) =>
      app.logs
        .filter((line) => line.includes(value) || line.includes(encodeURIComponent(value)))
        .map((line) => `${what}: ${line.slice(0, 200)}`),
    );
    expect(found).toEqual([]);
  });
});
