import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, persistenceKinds, request, type TestApp } from '../helpers/app.js';
import { addMember, asBrowser, bearer, signUp, sql, type SignedInUser } from '../helpers/auth.js';

describe.each(persistenceKinds)('removing a member is final (%s persistence)', (persistence) => {
  let app: TestApp;
  let owner: SignedInUser;
  let admin: SignedInUser;
  beforeAll(async () => {
    app = await bootApp({ persistence });
    owner = await signUp(app, 'owner');
    admin = await signUp(app, 'admin');
  });
  afterAll(() => app.close());

  const inOwnersOrganization = (user: SignedInUser) => ({
    ...asBrowser(app, user),
    'x-organization-id': owner.organizationId,
  });

  it('revokes their tokens there and ends their sessions’ hold on it; re-adding gives nothing back', async () => {
    await addMember(app, owner, owner.organizationId, admin, 'admin');
    const switched = await request(`${app.api}/auth/organization/set-active`, {
      method: 'POST',
      headers: asBrowser(app, admin),
      body: { organizationId: owner.organizationId },
    });
    expect(switched.status).toBe(200);
    const token = await request(`${app.api}/auth/tokens`, {
      method: 'POST',
      headers: inOwnersOrganization(admin),
      body: { name: 'kept?' },
    });
    expect(token.status).toBe(201);
    expect((await request(`${app.api}/connections`, { headers: bearer(token.body.token) })).status).toBe(200);

    const removed = await request(`${app.api}/organizations/${owner.organizationId}/members/${admin.userId}`, {
      method: 'DELETE',
      headers: asBrowser(app, owner),
    });
    expect(removed.status).toBe(200);
    expect(
      await sql(
        app,
        `select id from api_token where organization_id = '${owner.organizationId}' and created_by_user_id = '${admin.userId}'`,
      ),
    ).toEqual([]);
    const held = await sql(
      app,
      `select id_hash from auth_session where user_id = '${admin.userId}' and active_organization_id = '${owner.organizationId}'`,
    );
    expect(held).toEqual([]);

    await addMember(app, owner, owner.organizationId, admin, 'admin');
    expect((await request(`${app.api}/connections`, { headers: bearer(token.body.token) })).status).toBe(401);
    const session = await request(`${app.api}/auth/get-session`, { headers: asBrowser(app, admin) });
    expect(session.status).toBe(200);
    expect(session.body.session).toMatchObject({ activeOrganizationId: null });
  });
});
