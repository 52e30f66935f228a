import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, persistenceKinds, request, type TestApp } from '../helpers/app.js';
import { testPassword } from '../helpers/auth.js';

describe.each(persistenceKinds)('authless mode (%s persistence)', (persistence) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({ persistence, env: { SERVICE_AUTHLESS: 'true', AUTH_SECRET: undefined } });
  });
  afterAll(() => app.close());

  it('GET /api/auth/get-session answers the synthetic owner session of the local organization', async () => {
    const { status, body } = await request(`${app.api}/auth/get-session`);
    expect(status).toBe(200);
    expect(body.user).toMatchObject({ id: 'authless', email: null, name: 'Local owner' });
    expect(body.session).toEqual({
      expiresAt: null,
      activeOrganizationId: app.services.persistence.localOrganizationId(),
    });
  });

  it('GET /api/session answers the same owner', async () => {
    const { status, body } = await request(`${app.api}/session`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      authenticated: true,
      authless: true,
      role: 'owner',
      activeOrganization: { id: app.services.persistence.localOrganizationId() },
    });
  });

  it('POST /api/auth/sign-out answers 200 and sets no cookie', async () => {
    const response = await request(`${app.api}/auth/sign-out`, { method: 'POST', body: {} });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true });
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it.each([
    ['POST', '/auth/sign-up/email', { email: 'a@example.test', password: testPassword, name: 'A' }],
    ['POST', '/auth/sign-in/email', { email: 'a@example.test', password: testPassword }],
    ['POST', '/auth/tokens', { name: 'ci' }],
    ['GET', '/auth/tokens', undefined],
    ['DELETE', '/auth/tokens/some-id', undefined],
    ['POST', '/auth/organization/set-active', { organizationId: 'x' }],
  ])('rejects %s /api%s with 400 AUTHLESS_MODE', async (method, path, body) => {
    const response = await request(`${app.api}${path}`, { method, body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      code: 'AUTHLESS_MODE',
      message: 'Authentication is disabled: the service runs in authless mode (SERVICE_AUTHLESS=true)',
    });
  });

  it('creates no user from a refused sign-up', async () => {
    await request(`${app.api}/auth/sign-up/email`, {
      method: 'POST',
      body: { email: 'b@example.test', password: testPassword, name: 'B' },
    });
    const response = await request(`${app.api}/organizations`);
    expect(response.body.organizations).toHaveLength(1);
  });

  it('rejects member management (there are no users) but lists the local organization', async () => {
    const organizationId = app.services.persistence.localOrganizationId();
    const list = await request(`${app.api}/organizations`);
    expect(list.body.organizations).toEqual([expect.objectContaining({ id: organizationId, role: 'owner' })]);
    const members = await request(`${app.api}/organizations/${organizationId}/members`);
    expect(members.status).toBe(400);
    expect(members.body.code).toBe('AUTHLESS_MODE');
  });
});
