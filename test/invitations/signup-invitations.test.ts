import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, persistenceKinds, request, type TestApp } from '../helpers/app.js';
import { asBrowser, sql, sqlTime, uniqueEmail, type SignedInUser } from '../helpers/auth.js';
import { signUpWith } from '../auth/support/sign-up-attempt.js';

/** The default sign-up policy (invite): the first user owns the instance, later ones come by invitation; the whole invitation flow. */
describe.each(persistenceKinds)('sign-up policy, default SERVICE_SIGNUP=invite (%s persistence)', (persistence) => {
  let app: TestApp;
  let owner: SignedInUser;
  beforeAll(async () => {
    app = await bootApp({ persistence, env: { SERVICE_SIGNUP: undefined } });
    const first = await signUpWith(app, uniqueEmail('owner'));
    expect(first.response.status).toBe(200);
    owner = first.user;
  });
  afterAll(() => app.close());

  const invite = (email: string, role: string, by = owner, extra: Record<string, unknown> = {}) =>
    request(`${app.api}/organizations/${by.organizationId}/invitations`, {
      method: 'POST',
      headers: asBrowser(app, by),
      body: { email, role, ...extra },
    });

  it('makes the first user owner of the instance organization, the one environment connections belong to', async () => {
    expect(owner.organizationId).toBe(app.services.persistence.localOrganizationId());
    const session = await request(`${app.api}/session`, { headers: { cookie: owner.cookie } });
    expect(session.body).toMatchObject({
      role: 'owner',
      activeOrganization: { id: app.services.persistence.localOrganizationId() },
    });
  });

  it('refuses a stranger’s sign-up afterwards with 403 SIGNUP_CLOSED naming SERVICE_SIGNUP, creating nothing', async () => {
    const email = uniqueEmail('stranger');
    const { response } = await signUpWith(app, email);
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('SIGNUP_CLOSED');
    expect(response.body.message).toContain('SERVICE_SIGNUP');
    expect(await sql(app, `select "id" from "app_user" where "email" = '${email}'`)).toEqual([]);
  });

  it('runs the whole invitation flow: create (201, token once), list without tokens, preview, sign up with it, used → 410', async () => {
    const email = uniqueEmail('invitee');
    const created = await invite(email.toUpperCase(), 'operator');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email, role: 'operator', organizationId: owner.organizationId });
    expect(created.body.url).toBe(`${app.services.auth.appOrigin}/api/invitations/${created.body.token}`);
    expect(new Date(created.body.expiresAt).getTime() - Date.now()).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
    const token: string = created.body.token;
    const rows = await sql<{ token_hash: string }>(
      app,
      `select "token_hash" from "invitation" where "id" = '${created.body.id}'`,
    );
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await sql(app, 'select * from "invitation"'))).not.toContain(token);

    const list = await request(`${app.api}/organizations/${owner.organizationId}/invitations`, {
      headers: { cookie: owner.cookie },
    });
    expect(list.body.invitations.map((item: { id: string }) => item.id)).toContain(created.body.id);
    expect(JSON.stringify(list.body)).not.toContain(token);

    const preview = await request(`${app.api}/invitations/${token}`);
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      organization: { id: owner.organizationId, name: 'Local' },
      role: 'operator',
      email,
      expiresAt: created.body.expiresAt,
    });

    const wrongEmail = await signUpWith(app, uniqueEmail('impostor'), { invitationToken: token });
    expect(wrongEmail.response.status).toBe(403);
    expect(wrongEmail.response.body.code).toBe('INVITATION_EMAIL_MISMATCH');

    const joined = await signUpWith(app, email, { invitationToken: token });
    expect(joined.response.status).toBe(200);
    expect(joined.user.organizationId).toBe(owner.organizationId);
    const members = await request(`${app.api}/organizations/${owner.organizationId}/members`, {
      headers: { cookie: owner.cookie },
    });
    expect(members.body.members).toContainEqual(
      expect.objectContaining({ userId: joined.user.userId, role: 'operator' }),
    );

    const again = await request(`${app.api}/invitations/${token}`);
    expect(again.status).toBe(410);
    expect(again.body.code).toBe('INVITATION_USED');
    const reuse = await signUpWith(app, uniqueEmail('second'), { invitationToken: token });
    expect(reuse.response.status).toBe(410);
  });

  it('lets a signed-in user with the invited email accept; another email gets 403, a revoked one 404, an expired one 410', async () => {
    // An existing user elsewhere: an invitation into the owner's organization, accepted while signed in.
    const inviteeEmail = uniqueEmail('member');
    const first = (await invite(inviteeEmail, 'viewer')).body;
    const member = (await signUpWith(app, inviteeEmail, { invitationToken: first.token })).user;
    const otherOrg = (
      await request(`${app.api}/organizations`, {
        method: 'POST',
        headers: asBrowser(app, owner),
        body: { name: 'Second' },
      })
    ).body;
    const second = (
      await request(`${app.api}/organizations/${otherOrg.id}/invitations`, {
        method: 'POST',
        headers: asBrowser(app, owner),
        body: { email: inviteeEmail, role: 'admin' },
      })
    ).body;

    const accept = (user: SignedInUser, token: string) =>
      request(`${app.api}/invitations/${token}/accept`, { method: 'POST', headers: asBrowser(app, user), body: {} });
    expect(
      (
        await request(`${app.api}/invitations/${second.token}/accept`, {
          method: 'POST',
          headers: { origin: app.services.auth.appOrigin },
          body: {},
        })
      ).status,
    ).toBe(401);
    const wrong = await accept(owner, second.token);
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe('INVITATION_EMAIL_MISMATCH');
    const accepted = await accept(member, second.token);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ organizationId: otherOrg.id, role: 'admin' });
    const trail = await request(`${app.api}/audit?action=invitations.accept&limit=10`, {
      headers: { cookie: owner.cookie, 'x-organization-id': otherOrg.id },
    });
    expect(
      trail.body.events.map((event: { actor: { userId: string }; outcome: string }) => [
        event.actor.userId,
        event.outcome,
      ]),
    ).toEqual([
      [member.userId, 'success'],
      [owner.userId, 'denied'],
    ]);
    const session = await request(`${app.api}/session`, {
      headers: { cookie: member.cookie, 'x-organization-id': otherOrg.id },
    });
    expect(session.body.role).toBe('admin');

    const revoked = (await invite(uniqueEmail('revoked'), 'viewer')).body;
    const revoke = await request(`${app.api}/organizations/${owner.organizationId}/invitations/${revoked.id}`, {
      method: 'DELETE',
      headers: asBrowser(app, owner),
    });
    expect(revoke.status).toBe(200);
    const gone = await request(`${app.api}/invitations/${revoked.token}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('INVITATION_NOT_FOUND');

    const expiring = (await invite(uniqueEmail('late'), 'viewer')).body;
    await sql(
      app,
      `update "invitation" set "expires_at" = ${sqlTime(app, new Date(Date.now() - 1000))} where "id" = '${expiring.id}'`,
    );
    const expired = await request(`${app.api}/invitations/${expiring.token}`);
    expect(expired.status).toBe(410);
    expect(expired.body.code).toBe('INVITATION_EXPIRED');
    expect((await signUpWith(app, expiring.email, { invitationToken: expiring.token })).response.status).toBe(410);
    expect((await request(`${app.api}/invitations/bpi_unknown`)).status).toBe(404);
  });

  it('grants no role above the inviter’s, only owners and admins invite, and every invitation change is audited', async () => {
    const adminEmail = uniqueEmail('admin');
    const admin = (
      await signUpWith(app, adminEmail, { invitationToken: (await invite(adminEmail, 'admin')).body.token })
    ).user;
    const tooHigh = await invite(uniqueEmail('x'), 'owner', admin);
    expect(tooHigh.status).toBe(403);
    expect((await invite(uniqueEmail('x'), 'admin', admin)).status).toBe(201);
    const operatorEmail = uniqueEmail('op');
    const operator = (
      await signUpWith(app, operatorEmail, { invitationToken: (await invite(operatorEmail, 'operator')).body.token })
    ).user;
    const refused = await invite(uniqueEmail('x'), 'viewer', operator);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('invitations.write');
    const audit = await request(`${app.api}/audit?action=invitations.write&limit=50`, {
      headers: { cookie: owner.cookie },
    });
    const outcomes = audit.body.events.map((event: { outcome: string }) => event.outcome);
    expect(outcomes).toEqual(expect.arrayContaining(['success', 'denied']));
    expect(JSON.stringify(audit.body)).not.toMatch(/bpi_[A-Za-z0-9_-]{20}/);
    const signUps = await request(`${app.api}/audit?action=auth.sign-up&limit=50`, {
      headers: { cookie: owner.cookie },
    });
    expect(signUps.body.events).toContainEqual(
      expect.objectContaining({
        actor: expect.objectContaining({ userId: operator.userId }),
        outcome: 'success',
        parameters: { via: 'invitation', role: 'operator' },
      }),
    );
  });
});
