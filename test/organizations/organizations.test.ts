import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, persistenceKinds, request, type TestApp } from '../helpers/app.js';
import { addMember, asBrowser, signUp, type SignedInUser } from '../helpers/auth.js';

describe.each(persistenceKinds)('organizations and members (%s persistence)', (persistence) => {
  let app: TestApp;
  let owner: SignedInUser;
  let other: SignedInUser;
  beforeAll(async () => {
    app = await bootApp({ persistence });
    owner = await signUp(app, 'owner');
    other = await signUp(app, 'other');
  });
  afterAll(() => app.close());

  const call = (
    user: SignedInUser,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => request(`${app.api}${path}`, { method, headers: asBrowser(app, user, headers), body });

  it('creates an organization owned by its creator and lists it with the role', async () => {
    const created = await call(owner, 'POST', '/organizations', { name: 'Acme Ops' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Acme Ops', role: 'owner' });
    expect(created.body.slug).toMatch(/^acme-ops-[0-9a-f]{6}$/);
    const list = await call(owner, 'GET', '/organizations');
    expect(list.body.organizations.map((organization: { id: string }) => organization.id).sort()).toEqual(
      [owner.organizationId, created.body.id].sort(),
    );
  });

  it('invites a user by email (nobody joins without accepting), changes their role, removes them', async () => {
    const organizationId = owner.organizationId;
    const invited = await call(owner, 'POST', `/organizations/${organizationId}/members`, {
      email: other.email.toUpperCase(),
      role: 'viewer',
    });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({
      organizationId,
      email: other.email,
      role: 'viewer',
      acceptedAt: null,
      token: expect.stringMatching(/^bpi_/),
    });
    const pending = await call(owner, 'GET', `/organizations/${organizationId}/members`);
    expect(pending.body.members.map((member: { userId: string }) => member.userId)).toEqual([owner.userId]);
    expect((await call(other, 'GET', `/organizations/${organizationId}/members`)).status).toBe(403);

    expect((await call(other, 'POST', `/invitations/${invited.body.token}/accept`)).status).toBe(200);
    expect(
      (await call(owner, 'POST', `/organizations/${organizationId}/members`, { email: other.email, role: 'viewer' }))
        .body.code,
    ).toBe('CONFLICT');
    expect(
      (
        await call(owner, 'POST', `/organizations/${organizationId}/members`, {
          email: 'ghost@example.test',
          role: 'viewer',
        })
      ).status,
    ).toBe(201);

    const members = await call(other, 'GET', `/organizations/${organizationId}/members`);
    expect(members.status).toBe(200);
    expect(
      members.body.members.map((member: { userId: string; role: string }) => [member.userId, member.role]),
    ).toEqual([
      [owner.userId, 'owner'],
      [other.userId, 'viewer'],
    ]);

    const changed = await call(owner, 'PATCH', `/organizations/${organizationId}/members/${other.userId}`, {
      role: 'admin',
    });
    expect(changed.body.role).toBe('admin');
    const removed = await call(owner, 'DELETE', `/organizations/${organizationId}/members/${other.userId}`);
    expect(removed.body).toEqual({ success: true, id: other.userId, removed: 1 });
    expect((await call(other, 'GET', `/organizations/${organizationId}/members`)).status).toBe(403);
  });

  it('keeps the last owner: cannot be demoted or removed (409 LAST_OWNER), can once another owner exists', async () => {
    const organization = (await call(owner, 'POST', '/organizations', { name: 'Solo' })).body;
    const demote = await call(owner, 'PATCH', `/organizations/${organization.id}/members/${owner.userId}`, {
      role: 'admin',
    });
    expect(demote.status).toBe(409);
    expect(demote.body.code).toBe('LAST_OWNER');
    const remove = await call(owner, 'DELETE', `/organizations/${organization.id}/members/${owner.userId}`);
    expect(remove.status).toBe(409);
    expect((await call(owner, 'GET', `/organizations/${organization.id}/members`)).body.members).toHaveLength(1);

    await addMember(app, owner, organization.id, other, 'owner');
    expect(
      (await call(owner, 'PATCH', `/organizations/${organization.id}/members/${owner.userId}`, { role: 'admin' }))
        .status,
    ).toBe(200);
    const lastOwnerNow = await call(other, 'DELETE', `/organizations/${organization.id}/members/${other.userId}`);
    expect(lastOwnerNow.body.code).toBe('LAST_OWNER');
  });

  it('lets only owners manage members and settings', async () => {
    const organization = (await call(owner, 'POST', '/organizations', { name: 'Ranks' })).body;
    await addMember(app, owner, organization.id, other, 'admin');
    const asAdmin = await call(other, 'PATCH', `/organizations/${organization.id}/members/${owner.userId}`, {
      role: 'viewer',
    });
    expect(asAdmin.status).toBe(403);
    expect((await call(other, 'PATCH', `/organizations/${organization.id}`, { name: 'Renamed' })).status).toBe(403);
    const renamed = await call(owner, 'PATCH', `/organizations/${organization.id}`, { name: 'Renamed' });
    expect(renamed.body).toMatchObject({ name: 'Renamed', slug: organization.slug });
  });

  it('keeps a viewer from escalating or destroying, with well-formed requests (nothing changes)', async () => {
    const organization = (await call(owner, 'POST', '/organizations', { name: 'Watchers' })).body;
    const viewer = await signUp(app, 'viewer');
    await addMember(app, owner, organization.id, viewer, 'viewer');
    const inOrganization = { 'x-organization-id': organization.id };
    const connection = (
      await call(owner, 'POST', '/connections', { name: 'prod', url: 'redis://127.0.0.1:6379/0' }, inOrganization)
    ).body;
    const attempts: Array<[string, string, unknown]> = [
      ['PATCH', `/organizations/${organization.id}/members/${viewer.userId}`, { role: 'owner' }],
      ['POST', `/organizations/${organization.id}/members`, { email: other.email, role: 'owner' }],
      ['POST', `/organizations/${organization.id}/invitations`, { email: 'friend@example.com', role: 'owner' }],
      ['DELETE', `/organizations/${organization.id}/members/${owner.userId}`, undefined],
      ['PATCH', `/organizations/${organization.id}`, { name: 'Mine now' }],
      ['POST', '/auth/tokens', { name: 'escalated', role: 'admin' }],
      ['PATCH', `/connections/${connection.id}`, { url: 'redis://attacker.example:6379' }],
      ['DELETE', `/connections/${connection.id}`, undefined],
      ['DELETE', `/c/${connection.id}/queues/emails`, { confirmName: 'emails' }],
      ['POST', `/c/${connection.id}/queues/emails/clean`, { status: 'completed', gracePeriod: 0, limit: 1000 }],
    ];
    for (const [method, path, body] of attempts) {
      const response = await call(viewer, method, path, body, inOrganization);
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 403 });
    }
    const members = (await call(owner, 'GET', `/organizations/${organization.id}/members`)).body.members;
    expect(members.map((member: { userId: string; role: string }) => [member.userId, member.role]).sort()).toEqual(
      [
        [owner.userId, 'owner'],
        [viewer.userId, 'viewer'],
      ].sort(),
    );
    expect((await call(owner, 'GET', `/connections/${connection.id}`, undefined, inOrganization)).body.url).toBe(
      'redis://127.0.0.1:6379/0',
    );
    // What a viewer may do is still there: a token at their own role.
    const token = await call(viewer, 'POST', '/auth/tokens', { name: 'read-only' }, inOrganization);
    expect(token.body.role).toBe('viewer');
  });

  it('answers 403 for an organization the caller is not a member of, by path or by header', async () => {
    const stranger = await signUp(app, 'stranger');
    expect((await call(stranger, 'GET', `/organizations/${owner.organizationId}/members`)).status).toBe(403);
    const byHeader = await call(stranger, 'GET', '/session', undefined, { 'x-organization-id': owner.organizationId });
    expect(byHeader.status).toBe(403);
  });

  it('acts in the organization named by x-organization-id, else the session’s active one', async () => {
    const organization = (await call(other, 'POST', '/organizations', { name: 'Second' })).body;
    const snapshot = async (headers: Record<string, string> = {}) =>
      (await call(other, 'GET', '/session', undefined, headers)).body;
    expect((await snapshot()).activeOrganization.id).toBe(other.organizationId);
    expect((await snapshot({ 'x-organization-id': organization.id })).activeOrganization.id).toBe(organization.id);

    const setActive = await call(other, 'POST', '/auth/organization/set-active', { organizationId: organization.id });
    expect(setActive.status).toBe(200);
    expect((await snapshot()).activeOrganization.id).toBe(organization.id);
    const foreign = (await signUp(app, 'foreign')).organizationId;
    expect((await call(other, 'POST', '/auth/organization/set-active', { organizationId: foreign })).status).toBe(403);
  });
});
