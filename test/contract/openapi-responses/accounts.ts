import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { bootApp } from '../../helpers/app.js';
import { asBrowser, bearer, sessionCookieOf } from '../../helpers/auth.js';
import { ExternalIdentity } from '../../../server/persistence/entities/external-identity.js';
import { User } from '../../../server/persistence/entities/user.js';
import { DocumentValidator } from '../document-validator.js';
import { app, browser, docs, document, example, owner, state, withExample } from './tour.js';

/** Sign-up and sign-in, tokens, organizations and members, the audit trail, invitations, passwords, invite-only sign-up. */
export function accountChecks(): void {
  it('system and sign-up, sign-in', async () => {
    for (const operation of [
      'GET /health',
      'GET /mode',
      'GET /app/config',
      'GET /session',
      'GET /auth/get-session',
      'GET /auth/providers',
      'GET /ready',
    ])
      await docs.check({ operation }, 200);
    // No provider is configured here: a sign-in or callback names an unknown one (the redirects: test/auth/oauth/).
    await docs.check({ operation: 'GET /auth/sign-in/{provider}', path: { provider: 'github' } }, 404);
    await docs.check({ operation: 'GET /auth/callback/{provider}', path: { provider: 'google' } }, 404);
    const signedUp = await docs.check(withExample('POST /auth/sign-up/email'), 200);
    state.cookie = sessionCookieOf(signedUp.headers)!;
    state.organizationId = signedUp.body.session.activeOrganizationId;
    state.userId = signedUp.body.user.id;
    await docs.check(withExample('POST /auth/sign-up/email'), 409);
    await docs.check({ operation: 'POST /auth/sign-up/email', body: { email: 'not-an-email' } }, 400);
    await docs.check(withExample('POST /auth/sign-in/email'), 200);
    await docs.check(
      {
        operation: 'POST /auth/sign-in/email',
        body: { ...example('POST /auth/sign-in/email'), password: 'wrong password' },
      },
      401,
    );
    await docs.check({ operation: 'GET /session', headers: { cookie: state.cookie } }, 200);
    await docs.check(
      { operation: 'GET /session', headers: { cookie: state.cookie, 'x-organization-id': randomUUID() } },
      403,
    );
  });

  it('tokens, organizations, members, audit (session-only routes with the cookie)', async () => {
    const viewer = await docs.check(withExample('POST /auth/tokens', { headers: browser() }), 201);
    state.viewerToken = viewer.body.token;
    state.viewerTokenId = viewer.body.id;
    state.ownerToken = (
      await docs.check(
        { operation: 'POST /auth/tokens', headers: browser(), body: { name: 'owner', role: 'owner' } },
        201,
      )
    ).body.token;
    await docs.check({ ...withExample('POST /auth/tokens'), headers: owner() }, 403);
    await docs.check({ operation: 'GET /auth/tokens', headers: browser() }, 200);
    await docs.check({ operation: 'GET /auth/tokens/{id}', path: { id: viewer.body.id }, headers: browser() }, 200);
    await docs.check({ operation: 'GET /auth/tokens/{id}', path: { id: randomUUID() }, headers: browser() }, 404);
    await docs.check({ operation: 'GET /organizations', headers: owner() }, 200);
    const created = await docs.check(withExample('POST /organizations', { headers: browser() }), 201);
    const team = created.body.id as string;
    await docs.check(
      { operation: 'GET /organizations/{organizationId}', path: { organizationId: team }, headers: browser() },
      200,
    );
    await docs.check(
      withExample('PATCH /organizations/{organizationId}', { path: { organizationId: team }, headers: browser() }),
      200,
    );
    await docs.check(
      { operation: 'GET /organizations/{organizationId}/members', path: { organizationId: team }, headers: browser() },
      200,
    );
    const add = withExample('POST /organizations/{organizationId}/members', {
      path: { organizationId: team },
      headers: browser(),
    });
    const invitation = await docs.check(add, 201);
    const grace = await docs.check(
      {
        operation: 'POST /auth/sign-up/email',
        body: { email: (add.body as { email: string }).email, password: 'correct horse battery', name: 'Grace' },
      },
      200,
    );
    const graceBrowser = asBrowser(app, { cookie: sessionCookieOf(grace.headers)! });
    await docs.check(
      { operation: 'POST /invitations/{token}/accept', path: { token: invitation.body.token }, headers: graceBrowser },
      200,
    );
    await docs.check(add, 409);
    const member = { organizationId: team, userId: grace.body.user.id };
    await docs.check(
      withExample('PATCH /organizations/{organizationId}/members/{userId}', { path: member, headers: browser() }),
      200,
    );
    await docs.check(
      {
        operation: 'PATCH /organizations/{organizationId}/members/{userId}',
        path: { organizationId: team, userId: state.userId! },
        body: { role: 'admin' },
        headers: browser(),
      },
      409,
    );
    await docs.check(
      { operation: 'DELETE /organizations/{organizationId}/members/{userId}', path: member, headers: browser() },
      200,
    );
    await docs.check(
      { operation: 'DELETE /organizations/{organizationId}/members/{userId}', path: member, headers: browser() },
      404,
    );
    await docs.check(withExample('POST /auth/organization/set-active', { headers: browser() }), 403);
    await docs.check(
      {
        operation: 'POST /auth/organization/set-active',
        body: { organizationId: state.organizationId },
        headers: browser(),
      },
      200,
    );
    await docs.check({ operation: 'GET /audit', headers: owner() }, 200);
    await docs.check({ operation: 'GET /audit', query: { limit: 'many' }, headers: owner() }, 400);
    await docs.check({ operation: 'GET /audit/export', headers: owner() }, 200);
    await docs.check({ operation: 'GET /audit/export', query: { from: 'yesterday' }, headers: owner() }, 400);
    await docs.check({ operation: 'GET /audit/export' }, 401);
  });

  it('invitations: created, listed, previewed, revoked, used at sign-up and accepted signed in', async () => {
    const org = { organizationId: state.organizationId! };
    const create = 'POST /organizations/{organizationId}/invitations';
    const preview = 'GET /invitations/{token}';
    const accept = 'POST /invitations/{token}/accept';
    const first = await docs.check(withExample(create, { path: org, headers: browser() }), 201);
    await docs.check(
      {
        operation: create,
        path: org,
        headers: bearer(state.viewerToken!),
        body: { email: 'viewer@example.com', role: 'viewer' },
      },
      403,
    );
    await docs.check(
      { operation: 'GET /organizations/{organizationId}/invitations', path: org, headers: owner() },
      200,
    );
    await docs.check({ operation: preview, path: { token: first.body.token } }, 200);
    const one = {
      operation: 'GET /organizations/{organizationId}/invitations/{invitationId}',
      path: { ...org, invitationId: first.body.id },
      headers: browser(),
    };
    await docs.check(one, 200);
    const revoke = {
      operation: 'DELETE /organizations/{organizationId}/invitations/{invitationId}',
      path: { ...org, invitationId: first.body.id },
      headers: browser(),
    };
    await docs.check(revoke, 200);
    await docs.check(revoke, 404);
    await docs.check(one, 404);
    await docs.check({ operation: preview, path: { token: first.body.token } }, 404);

    const invited = await docs.check(
      { operation: create, path: org, headers: browser(), body: { email: 'lin@example.com', role: 'viewer' } },
      201,
    );
    const signUp = {
      operation: 'POST /auth/sign-up/email',
      body: {
        email: 'lin@example.com',
        password: 'correct horse battery',
        name: 'Lin',
        invitationToken: invited.body.token,
      },
    };
    expect(
      (await docs.check({ ...signUp, body: { ...signUp.body, email: 'not-lin@example.com' } }, 403)).body.code,
    ).toBe('INVITATION_EMAIL_MISMATCH');
    const lin = await docs.check(signUp, 200);
    expect(lin.body.session.activeOrganizationId).toBe(state.organizationId);
    state.linId = lin.body.user.id;
    state.linCookie = sessionCookieOf(lin.headers)!;
    await docs.check({ operation: preview, path: { token: invited.body.token } }, 410);
    expect((await docs.check({ ...signUp, body: { ...signUp.body, email: 'lin2@example.com' } }, 410)).body.code).toBe(
      'INVITATION_USED',
    );

    expect(
      (
        await docs.check(
          { operation: create, path: org, headers: browser(), body: { email: 'lin@example.com', role: 'operator' } },
          409,
        )
      ).body.code,
    ).toBe('CONFLICT');
    const kim = await docs.check(
      {
        operation: 'POST /auth/sign-up/email',
        body: { email: 'kim@example.com', password: 'correct horse battery', name: 'Kim' },
      },
      200,
    );
    const kimBrowser = asBrowser(app, { cookie: sessionCookieOf(kim.headers)! });
    const again = await docs.check(
      { operation: create, path: org, headers: browser(), body: { email: 'kim@example.com', role: 'operator' } },
      201,
    );
    await docs.check({ operation: accept, path: { token: again.body.token } }, 401);
    expect(
      (await docs.check({ operation: accept, path: { token: again.body.token }, headers: browser() }, 403)).body.code,
    ).toBe('INVITATION_EMAIL_MISMATCH');
    await docs.check({ operation: accept, path: { token: again.body.token }, headers: kimBrowser }, 200);
    await docs.check({ operation: accept, path: { token: again.body.token }, headers: kimBrowser }, 410);
    await docs.check({ operation: accept, path: { token: 'bpi_unknown' }, headers: kimBrowser }, 404);
  });

  it('passwords: change, a member reset link, reset', async () => {
    const linBrowser = asBrowser(app, { cookie: state.linCookie! });
    const change = withExample('POST /auth/change-password', { headers: linBrowser });
    await docs.check({ ...change, headers: owner() }, 401);
    await docs.check(change, 200);
    expect((await docs.check(change, 400)).body.code).toBe('CURRENT_PASSWORD_INCORRECT'); // the example's currentPassword is no longer current
    const member = { organizationId: state.organizationId!, userId: state.linId! };
    const operation = 'POST /organizations/{organizationId}/members/{userId}/password-reset';
    await docs.check({ operation, path: { ...member, userId: randomUUID() }, headers: browser() }, 404);
    await docs.check({ operation, path: member, headers: bearer(state.viewerToken!) }, 403);
    const link = await docs.check({ operation, path: member, headers: browser() }, 201);
    const reset = withExample('POST /auth/reset-password');
    expect((await docs.check(reset, 400)).body.code).toBe('RESET_LINK_INVALID'); // the example token is no link
    await docs.check({ ...reset, body: { ...(reset.body as object), token: link.body.token } }, 200);
    await docs.check({ ...reset, body: { ...(reset.body as object), token: link.body.token } }, 400);
  });

  it('linked identities: list, unlink (the link redirect itself: test/auth/oauth/)', async () => {
    await docs.check({ operation: 'GET /auth/link/{provider}', path: { provider: 'oidc' }, headers: browser() }, 404);
    await docs.check({ operation: 'GET /auth/identities', headers: owner() }, 401);
    await docs.check({ operation: 'GET /auth/identities', headers: browser() }, 200);
    const unlink = (provider: string, headers = browser()) => ({
      operation: 'DELETE /auth/identities/{provider}',
      path: { provider },
      headers,
    });
    await docs.check(unlink('github'), 404);
    await docs.check(unlink('facebook'), 400);
    // No provider is configured here: the links the flow makes are written directly.
    const em = app.services.persistence.fork();
    const ssoOnlyId = randomUUID();
    em.create(User, {
      id: ssoOnlyId,
      email: 'sso-only@example.com',
      name: 'SSO only',
      passwordHash: '',
      createdAt: new Date(),
      lastSignInAt: null,
    });
    for (const [userId, subject] of [
      [state.userId!, 'tour-owner'],
      [ssoOnlyId, 'tour-sso-only'],
    ] as const) {
      em.create(ExternalIdentity, {
        id: randomUUID(),
        userId,
        provider: 'github',
        subject,
        email: null,
        createdAt: new Date(),
        lastSignInAt: null,
      });
    }
    await em.flush();
    await docs.check(unlink('github'), 200);
    const ssoOnly = await app.services.auth.lucia.createSession(ssoOnlyId, { activeOrganizationId: null });
    await docs.check(unlink('github', asBrowser(app, { cookie: `bullpen_session=${ssoOnly.id}` })), 409);
  });

  it('sign-up by invitation only (SERVICE_SIGNUP=invite): the first account owns the instance, the next needs an invitation', async () => {
    const invite = await bootApp({ env: { SERVICE_SIGNUP: 'invite' } });
    try {
      const inviteDocs = await DocumentValidator.create(document, invite.api);
      await inviteDocs.check(withExample('POST /auth/sign-up/email'), 200);
      const uninvited = {
        operation: 'POST /auth/sign-up/email',
        body: { email: 'uninvited@example.com', password: 'correct horse battery', name: 'Uninvited' },
      };
      expect((await inviteDocs.check(uninvited, 403)).body).toMatchObject({
        code: 'SIGNUP_CLOSED',
        setting: 'SERVICE_SIGNUP',
      });
    } finally {
      await invite.close();
    }
  });
}
