import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { asBrowser, uniqueEmail } from '../helpers/auth.js';
import { signUpWith } from './support/sign-up-attempt.js';

describe('SERVICE_SIGNUP=closed', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({ env: { SERVICE_SIGNUP: 'closed' } });
  });
  afterAll(() => app.close());

  it('admits the first user only; an invitation does not open sign-up', async () => {
    const first = await signUpWith(app, uniqueEmail('first'));
    expect(first.response.status).toBe(200);
    const invitation = (await request(`${app.api}/organizations/${first.user.organizationId}/invitations`, { method: 'POST', headers: asBrowser(app, first.user), body: { email: 'later@example.test', role: 'viewer' } })).body;
    const later = await signUpWith(app, 'later@example.test', { invitationToken: invitation.token });
    expect(later.response.status).toBe(403);
    expect(later.response.body).toMatchObject({ code: 'SIGNUP_CLOSED', message: expect.stringContaining('SERVICE_SIGNUP=closed') });
  });
});
