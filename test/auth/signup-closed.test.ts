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
    const invitation = (
      await request(`${app.api}/organizations/${first.user.organizationId}/invitations`, {
        method: 'POST',
        headers: asBrowser(app, first.user),
        body: { email: 'later@example.test', role: 'viewer' },
      })
    ).body;
    const later = await signUpWith(app, 'later@example.test', { invitationToken: invitation.token });
    expect(later.response.status).toBe(403);
    expect(later.response.body).toMatchObject({
      code: 'SIGNUP_CLOSED',
      message: expect.stringContaining('SERVICE_SIGNUP=closed'),
    });
  });
});

describe.each(['closed', 'invite'])('SERVICE_SIGNUP=%s answers the same for known and unknown emails', (policy) => {
  let app: TestApp;
  let known: string;
  beforeAll(async () => {
    app = await bootApp({ env: { SERVICE_SIGNUP: policy } });
    known = uniqueEmail('known');
    expect((await signUpWith(app, known)).response.status).toBe(200);
  });
  afterAll(() => app.close());

  it('so sign-up tells no one which emails have an account', async () => {
    const answers = [];
    for (const email of [known, known.toUpperCase(), uniqueEmail('unknown')]) {
      const { response } = await signUpWith(app, email);
      answers.push({ status: response.status, body: response.body });
    }
    expect(answers[0]).toMatchObject({ status: 403, body: { code: 'SIGNUP_CLOSED' } });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });
});
