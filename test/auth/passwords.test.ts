import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../routers/_app.js';
import { bootApp, persistenceKinds, request, testAuthSecret, type TestApp } from '../helpers/app.js';
import {
  addMember,
  asBrowser,
  sessionCookieOf,
  signUp,
  sql,
  sqlTime,
  testPassword,
  type SignedInUser,
} from '../helpers/auth.js';
import { repoRoot } from '../helpers/process.js';

const run = promisify(execFile);
const newPassword = 'a brand new passphrase';

describe.each(persistenceKinds)('sessions and passwords (%s persistence)', (persistence) => {
  let app: TestApp;
  let owner: SignedInUser;
  beforeAll(async () => {
    app = await bootApp({ persistence });
    owner = await signUp(app, 'owner');
  });
  afterAll(() => app.close());

  const signIn = (email: string, password: string, headers: Record<string, string> = {}) =>
    request(`${app.api}/auth/sign-in/email`, { method: 'POST', headers, body: { email, password } });
  const signedInAs = async (user: SignedInUser, password = testPassword): Promise<SignedInUser> => {
    const response = await signIn(user.email, password);
    expect(response.status).toBe(200);
    const cookie = sessionCookieOf(response.headers)!;
    return { ...user, cookie, sessionId: cookie.split('=')[1]! };
  };
  const works = async (cookie: string) =>
    (await request(`${app.api}/organizations`, { headers: { cookie } })).status === 200;
  const trpcAs = (cookie: string) =>
    createTRPCClient<AppRouter>({
      links: [httpLink({ url: `${app.api}/trpc`, headers: { cookie, origin: app.services.auth.appOrigin } })],
    });

  it('sign-in issues a new session id, never the one the request carried, and ends that one', async () => {
    const user = await signUp(app, 'fixation');
    const response = await signIn(user.email, testPassword, asBrowser(app, user));
    const fresh = sessionCookieOf(response.headers)!;
    expect(fresh).toMatch(/^bullpen_session=\w+/);
    expect(fresh).not.toBe(user.cookie);
    expect(await works(fresh)).toBe(true);
    expect(await works(user.cookie)).toBe(false);
  });

  it('sign-out over REST (JSON body) and over tRPC ends the session: the cookie works nowhere after', async () => {
    const user = await signUp(app, 'leaver');
    const rest = await signedInAs(user);
    expect(
      (await request(`${app.api}/auth/sign-out`, { method: 'POST', headers: asBrowser(app, rest), body: {} })).status,
    ).toBe(200);
    expect(await works(rest.cookie)).toBe(false);
    await expect(trpcAs(rest.cookie).organizations.list.query()).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });

    const viaTrpc = await signedInAs(user);
    expect(await trpcAs(viaTrpc.cookie).organizations.list.query()).toMatchObject({ organizations: expect.any(Array) });
    await trpcAs(viaTrpc.cookie).auth.signOut.mutate();
    expect(await works(viaTrpc.cookie)).toBe(false);
    await expect(trpcAs(viaTrpc.cookie).organizations.list.query()).rejects.toMatchObject({
      data: { code: 'UNAUTHORIZED' },
    });
    // The first session (sign-up) was never signed out: only the ones that were end.
    expect(await works(user.cookie)).toBe(true);
  });

  it('change-password: a wrong current password changes nothing; a right one ends the other sessions, keeps this one', async () => {
    const user = await signUp(app, 'changer');
    const other = await signedInAs(user);
    const change = (body: object) =>
      request(`${app.api}/auth/change-password`, { method: 'POST', headers: asBrowser(app, user), body });
    const wrong = await change({ currentPassword: 'not my password', newPassword });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('CURRENT_PASSWORD_INCORRECT');
    expect(await works(other.cookie)).toBe(true);

    const changed = await change({ currentPassword: testPassword, newPassword });
    expect(changed.body).toEqual({ success: true, endedSessions: 1, revokedTokens: 0 });
    expect(await works(user.cookie)).toBe(true);
    expect(await works(other.cookie)).toBe(false);
    expect((await signIn(user.email, testPassword)).status).toBe(401);
    expect((await signIn(user.email, newPassword)).status).toBe(200);
  });

  it('an owner’s one-time reset link (1 h, stored hashed) sets a new password and ends every session of that user', async () => {
    const member = await signUp(app, 'forgetful');
    await addMember(app, owner, owner.organizationId, member, 'operator');
    const second = await signedInAs(member);
    const created = await request(
      `${app.api}/organizations/${owner.organizationId}/members/${member.userId}/password-reset`,
      { method: 'POST', headers: asBrowser(app, owner), body: {} },
    );
    expect(created.status).toBe(201);
    expect(created.body.url).toBe(`${app.services.auth.appOrigin}/reset-password#token=${created.body.token}`);
    const lifetime = new Date(created.body.expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(59 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(60 * 60_000);
    expect(JSON.stringify(await sql(app, 'select * from "password_reset"'))).not.toContain(created.body.token);

    const reset = (token: string) =>
      request(`${app.api}/auth/reset-password`, { method: 'POST', body: { token, newPassword } });
    expect((await reset(created.body.token)).status).toBe(200);
    expect(await works(member.cookie)).toBe(false);
    expect(await works(second.cookie)).toBe(false);
    expect(await works(owner.cookie)).toBe(true);
    expect((await signIn(member.email, newPassword)).status).toBe(200);
    const again = await reset(created.body.token);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('RESET_LINK_INVALID');

    const late = (
      await request(`${app.api}/organizations/${owner.organizationId}/members/${member.userId}/password-reset`, {
        method: 'POST',
        headers: asBrowser(app, owner),
        body: {},
      })
    ).body;
    await sql(
      app,
      `update "password_reset" set "expires_at" = ${sqlTime(app, new Date(Date.now() - 1000))} where "used_at" is null`,
    );
    expect((await reset(late.token)).body.code).toBe('RESET_LINK_INVALID');
  });

  it('only the instance owner makes reset links: an admin or an owner of any organization cannot', async () => {
    const admin = await signUp(app, 'admin');
    const operator = await signUp(app, 'operator');
    await addMember(app, owner, owner.organizationId, admin, 'admin');
    await addMember(app, owner, owner.organizationId, operator, 'operator');
    const link = (by: SignedInUser, organizationId: string, userId: string) =>
      request(`${app.api}/organizations/${organizationId}/members/${userId}/password-reset`, {
        method: 'POST',
        headers: asBrowser(app, by, { 'x-organization-id': organizationId }),
        body: {},
      });
    expect((await link(admin, owner.organizationId, owner.userId)).status).toBe(403);
    expect((await link(admin, owner.organizationId, operator.userId)).body.code).toBe('FORBIDDEN');
    expect((await link(operator, owner.organizationId, admin.userId)).status).toBe(403);
    // The operator owns an organization of their own (made at sign-up): the admin joins it, and still
    // its owner cannot reset the admin's password, nor the instance owner's were they a member.
    await addMember(app, operator, operator.organizationId, admin, 'viewer');
    expect((await link(operator, operator.organizationId, admin.userId)).body.code).toBe('FORBIDDEN');
    expect((await link(owner, owner.organizationId, operator.userId)).status).toBe(201);
  });
});

describe('npm run admin -- reset-password', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp();
  });
  afterAll(() => app.close());

  it('prints a one-time reset link on the server, without the network', async () => {
    const owner = await signUp(app, 'locked-out');
    const env = {
      PATH: process.env.PATH ?? '',
      AUTH_SECRET: testAuthSecret,
      SERVICE_EMBEDDED_DIR: (app.config.persistence as { directory: string }).directory,
      APP_BASE_URL: 'https://bullpen.example.test',
    };
    const { stdout } = await run(
      path.join(repoRoot, 'node_modules/.bin/tsx'),
      ['server/admin.ts', 'reset-password', owner.email.toUpperCase()],
      { cwd: repoRoot, env },
    );
    const token = /#token=(\S+)/.exec(stdout)![1]!;
    expect(stdout).toContain('https://bullpen.example.test/reset-password#token=');
    const reset = await request(`${app.api}/auth/reset-password`, { method: 'POST', body: { token, newPassword } });
    expect(reset.status).toBe(200);
    expect((await request(`${app.api}/organizations`, { headers: { cookie: owner.cookie } })).status).toBe(401);
    const unknown = await run(
      path.join(repoRoot, 'node_modules/.bin/tsx'),
      ['server/admin.ts', 'reset-password', 'nobody@example.test'],
      { cwd: repoRoot, env },
    ).catch((error) => error);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no user has the email nobody@example.test');
  });
});
