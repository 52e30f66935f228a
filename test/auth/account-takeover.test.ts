import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { addMember, asBrowser, signUp, sql, testPassword, type SignedInUser } from '../helpers/auth.js';

/**
 * The attack an outside run made on the landed service (issue 30, finding 1),
 * request by request: an invited viewer (or, with open sign-up, a stranger)
 * creates an organization, adds the instance owner's email to it, asks for a
 * reset link for them and signs in with it. Each step that used to work must
 * be refused, and the owner's account must not change.
 */
describe.each(['an invited viewer', 'a stranger (open sign-up)'] as const)(
  '%s taking over the instance owner from an organization of their own',
  (attackerKind) => {
    let app: TestApp;
    let owner: SignedInUser;
    let attacker: SignedInUser;
    beforeAll(async () => {
      app = await bootApp({ env: { SERVICE_SIGNUP: 'open' } });
      owner = await signUp(app, 'owner');
      attacker = await signUp(app, 'attacker');
      if (attackerKind === 'an invited viewer') await addMember(app, owner, owner.organizationId, attacker, 'viewer');
    });
    afterAll(() => app.close());

    const as = (
      user: SignedInUser,
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) => request(`${app.api}${path}`, { method, headers: asBrowser(app, user, headers), body });
    const ownerAccount = async () => sql(app, `select "password_hash" from "app_user" where "id" = '${owner.userId}'`);

    it('fails at every step, and the owner keeps their password, sessions and memberships', async () => {
      const before = await ownerAccount();
      const created = await as(attacker, 'POST', '/organizations', { name: 'Trap' });
      expect(created.status).toBe(201);
      const trap = created.body.id as string;

      const added = await as(attacker, 'POST', `/organizations/${trap}/members`, {
        email: owner.email,
        role: 'viewer',
      });
      expect(added.status, 'an email gets an invitation, not a membership').toBe(201);
      const members = await as(attacker, 'GET', `/organizations/${trap}/members`);
      expect(members.body.members.map((member: { userId: string }) => member.userId)).toEqual([attacker.userId]);

      const reset = await as(
        attacker,
        'POST',
        `/organizations/${trap}/members/${owner.userId}/password-reset`,
        {},
        { 'x-organization-id': trap },
      );
      expect([reset.status, reset.body.code]).toEqual([403, 'FORBIDDEN']);
      expect(reset.body.token).toBeUndefined();

      const signIn = await request(`${app.api}/auth/sign-in/email`, {
        method: 'POST',
        body: { email: owner.email, password: testPassword },
      });
      expect(signIn.status, 'the owner still signs in with their own password').toBe(200);
      expect(await ownerAccount()).toEqual(before);
      expect(
        (await as(owner, 'GET', '/auth/get-session')).body.user?.id,
        "the owner's own session is still valid",
      ).toBe(owner.userId);
      const ownerOrganizations = await as(owner, 'GET', '/organizations');
      expect(ownerOrganizations.body.organizations.map((organization: { id: string }) => organization.id)).toEqual([
        owner.organizationId,
      ]);
    });

    it('an invitation the owner never accepts gives the inviter nothing over them', async () => {
      const trap = (await as(attacker, 'POST', '/organizations', { name: 'Trap 2' })).body.id as string;
      await as(attacker, 'POST', `/organizations/${trap}/members`, { email: owner.email, role: 'owner' });
      const attempts = [
        ['PATCH', `/organizations/${trap}/members/${owner.userId}`, { role: 'viewer' }, [404, 'NOT_FOUND']],
        ['DELETE', `/organizations/${trap}/members/${owner.userId}`, undefined, [404, 'NOT_FOUND']],
        ['POST', `/organizations/${trap}/members/${owner.userId}/password-reset`, {}, [403, 'FORBIDDEN']],
      ] as const;
      for (const [method, path, body, refusal] of attempts) {
        const response = await as(attacker, method, path, body, { 'x-organization-id': trap });
        expect([response.status, response.body.code], `${method} ${path}`).toEqual(refusal);
      }
    });
  },
);
