import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, persistenceKinds, request, testAuthSecret, type TestApp } from '../helpers/app.js';
import { addMember, asBrowser, bearer, signUp, sql, sqlTime, type SignedInUser } from '../helpers/auth.js';

describe.each(persistenceKinds)('API tokens (%s persistence)', (persistence) => {
  let app: TestApp;
  let owner: SignedInUser;
  beforeAll(async () => {
    app = await bootApp({ persistence });
    owner = await signUp(app, 'owner');
  });
  afterAll(() => app.close());

  const createToken = (user: SignedInUser, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    request(`${app.api}/auth/tokens`, { method: 'POST', headers: asBrowser(app, user, headers), body });

  it('shows the token once, stores only its hash, and authenticates bearer calls as its organization and role', async () => {
    const created = await createToken(owner, { name: 'ci', role: 'operator' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'ci',
      role: 'operator',
      organizationId: owner.organizationId,
      createdByUserId: owner.userId,
      expiresAt: null,
    });
    const token: string = created.body.token;
    expect(token).toMatch(/^bp_[\w-]{43}$/);

    const rows = await sql<{ token_hash: string }>(
      app,
      `select "token_hash" from "api_token" where "id" = '${created.body.id}'`,
    );
    expect(rows).toEqual([{ token_hash: createHmac('sha256', testAuthSecret).update(token).digest('hex') }]);
    expect(JSON.stringify(await sql(app, 'select * from "api_token"'))).not.toContain(token);

    const listed = await request(`${app.api}/auth/tokens`, { headers: { cookie: owner.cookie } });
    expect(listed.body.tokens.map((entry: { id: string }) => entry.id)).toContain(created.body.id);
    expect(JSON.stringify(listed.body)).not.toContain(token);

    const snapshot = await request(`${app.api}/session`, { headers: bearer(token) });
    expect(snapshot.body).toMatchObject({
      authenticated: true,
      role: 'operator',
      activeOrganization: { id: owner.organizationId },
    });
  });

  it('is exempt from the CSRF check and cannot manage tokens itself', async () => {
    const { token } = (await createToken(owner, { name: 'script' })).body;
    const created = await request(`${app.api}/auth/tokens`, {
      method: 'POST',
      headers: bearer(token),
      body: { name: 'minted' },
    });
    expect(created.status).toBe(403);
    expect(created.body.message).toContain('signed-in person');
  });

  it('cannot exceed its creator’s role, and follows the creator’s current role', async () => {
    const member = await signUp(app, 'member');
    await addMember(app, owner, owner.organizationId, member, 'operator');
    const headers = { 'x-organization-id': owner.organizationId };
    const tooHigh = await createToken(member, { name: 'x', role: 'admin' }, headers);
    expect(tooHigh.status).toBe(403);
    const { token } = (await createToken(member, { name: 'mine' }, headers)).body;
    expect((await request(`${app.api}/session`, { headers: bearer(token) })).body.role).toBe('operator');

    await request(`${app.api}/organizations/${owner.organizationId}/members/${member.userId}`, {
      method: 'PATCH',
      headers: asBrowser(app, owner),
      body: { role: 'viewer' },
    });
    expect((await request(`${app.api}/session`, { headers: bearer(token) })).body.role).toBe('viewer');
    await request(`${app.api}/organizations/${owner.organizationId}/members/${member.userId}`, {
      method: 'DELETE',
      headers: asBrowser(app, owner),
    });
    expect((await request(`${app.api}/organizations`, { headers: bearer(token) })).status).toBe(401);
  });

  it('acts in its own organization only', async () => {
    const { token } = (await createToken(owner, { name: 'scoped' })).body;
    const elsewhere = await request(`${app.api}/organizations`, {
      headers: { ...bearer(token), 'x-organization-id': 'another-org' },
    });
    expect(elsewhere.status).toBe(403);
  });

  it('refuses an expiry in the past; an expired or revoked token gets 401', async () => {
    expect(
      (await createToken(owner, { name: 'old', expiresAt: new Date(Date.now() - 60_000).toISOString() })).status,
    ).toBe(400);
    const expiring = (
      await createToken(owner, { name: 'short', expiresAt: new Date(Date.now() + 60_000).toISOString() })
    ).body;
    expect((await request(`${app.api}/organizations`, { headers: bearer(expiring.token) })).status).toBe(200);
    await sql(
      app,
      `update "api_token" set "expires_at" = ${sqlTime(app, new Date(Date.now() - 1000))} where "id" = '${expiring.id}'`,
    );
    expect((await request(`${app.api}/organizations`, { headers: bearer(expiring.token) })).status).toBe(401);

    const revoked = (await createToken(owner, { name: 'gone' })).body;
    const deleted = await request(`${app.api}/auth/tokens/${revoked.id}`, {
      method: 'DELETE',
      headers: asBrowser(app, owner),
    });
    expect(deleted.body).toEqual({ success: true, id: revoked.id });
    expect((await request(`${app.api}/organizations`, { headers: bearer(revoked.token) })).status).toBe(401);
    expect(
      (await request(`${app.api}/auth/tokens/${revoked.id}`, { method: 'DELETE', headers: asBrowser(app, owner) }))
        .status,
    ).toBe(404);
  });

  it('has scope full unless created with scope read, which reads everything its role may and changes nothing', async () => {
    expect((await createToken(owner, { name: 'full' })).body.scope).toBe('full');
    expect((await createToken(owner, { name: 'bad', scope: 'write' })).status).toBe(400);
    const reader = (await createToken(owner, { name: 'reader', scope: 'read' })).body;
    expect(reader).toMatchObject({ scope: 'read', role: 'owner' });
    const listed = (await request(`${app.api}/auth/tokens`, { headers: { cookie: owner.cookie } })).body.tokens;
    expect(listed.find((token: { id: string }) => token.id === reader.id)).toMatchObject({ scope: 'read' });
    expect(
      (await request(`${app.api}/organizations/${owner.organizationId}/members`, { headers: bearer(reader.token) }))
        .status,
    ).toBe(200);
    const rename = await request(`${app.api}/organizations/${owner.organizationId}`, {
      method: 'PATCH',
      headers: bearer(reader.token),
      body: { name: 'renamed' },
    });
    expect([rename.status, rename.body.code, rename.body.tokenScope]).toEqual([403, 'FORBIDDEN', 'read']);
    const [organization] = (await request(`${app.api}/organizations`, { headers: { cookie: owner.cookie } })).body
      .organizations;
    expect(organization.name).not.toBe('renamed');
  });

  it('answers 401 for an unknown bearer token', async () => {
    const response = await request(`${app.api}/organizations`, { headers: bearer('bp_not-a-real-token') });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('UNAUTHORIZED');
  });
});
