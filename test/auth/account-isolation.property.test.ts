import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExternalIdentity } from '../../server/persistence/entities/external-identity.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { addMember, asBrowser, signUp, sql, testPassword, type SignedInUser } from '../helpers/auth.js';

/**
 * Property: whatever user A does with organizations (create, invite, add,
 * change roles, remove, reset passwords, revoke tokens, unlink identities,
 * switch organizations, accept invitations meant for B, guess B's password),
 * user B's password, sessions, API tokens, linked identities and
 * memberships in organizations A does not own never change. A is a member of the
 * instance's organization with any role but owner (an owner of it is the
 * instance owner, who may reset passwords); B is a viewer there and owns an
 * organization of their own. fast-check generates the sequences (seeded:
 * PROPERTY_SEED replays one; the runs and seed are printed).
 */
const seed = Number(process.env.PROPERTY_SEED ?? 3030);
const runs = Number(process.env.PROPERTY_RUNS ?? 30);

const roles = ['viewer', 'operator', 'admin', 'owner'] as const;
const orgChoice = fc.oneof(fc.constant('instance' as const), fc.constant('bOwn' as const), fc.nat({ max: 3 }));
const action = fc.oneof(
  fc.record({ kind: fc.constant('createOrganization' as const) }),
  fc.record({
    kind: fc.constantFrom('invite' as const, 'addMember' as const),
    org: orgChoice,
    role: fc.constantFrom(...roles),
  }),
  fc.record({ kind: fc.constant('changeRole' as const), org: orgChoice, role: fc.constantFrom(...roles) }),
  fc.record({
    kind: fc.constantFrom('removeMember' as const, 'resetPassword' as const, 'setActive' as const),
    org: orgChoice,
  }),
  fc.record({
    kind: fc.constantFrom(
      'revokeBToken' as const,
      'unlinkIdentity' as const,
      'acceptBInvitation' as const,
      'guessBPassword' as const,
    ),
  }),
);
type Action = typeof action extends fc.Arbitrary<infer T> ? T : never;

describe('property: nothing user A does changes user B’s account', () => {
  let app: TestApp;
  let owner: SignedInUser;
  const ran: string[] = [];
  beforeAll(async () => {
    app = await bootApp({ env: { DISABLE_RATE_LIMIT: 'true' } });
    owner = await signUp(app, 'instance-owner');
  });
  afterAll(async () => {
    console.log(`account isolation: ${ran.length} sequences (seed ${seed}), ${ran.join(' | ')}`);
    await app?.close();
  });

  /** B's account as the database holds it, memberships limited to organizations A does not own. */
  async function accountOf(b: SignedInUser, a: SignedInUser) {
    const aOrganizations = (
      await sql<{ organization_id: string }>(
        app,
        `select "organization_id" from "membership" where "user_id" = '${a.userId}' and "role" = 'owner'`,
      )
    ).map((row) => row.organization_id);
    const outside = aOrganizations.length
      ? `and "organization_id" not in (${aOrganizations.map((id) => `'${id}'`).join(',')})`
      : '';
    return {
      password: await sql(app, `select "password_hash" from "app_user" where "id" = '${b.userId}'`),
      sessions: await sql(
        app,
        `select "id_hash" from "auth_session" where "user_id" = '${b.userId}' order by "id_hash"`,
      ),
      tokens: await sql(
        app,
        `select "id", "organization_id", "role", "token_hash" from "api_token" where "created_by_user_id" = '${b.userId}' order by "id"`,
      ),
      identities: await sql(
        app,
        `select "id", "provider", "subject" from "external_identity" where "user_id" = '${b.userId}' order by "id"`,
      ),
      memberships: await sql(
        app,
        `select "organization_id", "role" from "membership" where "user_id" = '${b.userId}' ${outside} order by "organization_id"`,
      ),
    };
  }

  async function perform(
    step: Action,
    a: SignedInUser,
    b: SignedInUser,
    bToken: string,
    mine: string[],
  ): Promise<void> {
    const as = (method: string, path: string, body?: unknown, organizationId?: string) =>
      request(`${app.api}${path}`, {
        method,
        headers: asBrowser(app, a, organizationId ? { 'x-organization-id': organizationId } : {}),
        body,
      });
    const organization = (choice: 'instance' | 'bOwn' | number) =>
      choice === 'instance'
        ? owner.organizationId
        : choice === 'bOwn'
          ? b.organizationId
          : (mine[choice % Math.max(1, mine.length)] ?? a.organizationId);
    switch (step.kind) {
      case 'createOrganization': {
        const created = await as('POST', '/organizations', { name: `A's ${mine.length}` });
        if (created.status === 200) mine.push(created.body.id);
        return;
      }
      case 'invite':
      case 'addMember': {
        const org = organization(step.org);
        await as(
          'POST',
          `/organizations/${org}/${step.kind === 'invite' ? 'invitations' : 'members'}`,
          { email: b.email, role: step.role },
          org,
        );
        return;
      }
      case 'changeRole': {
        const org = organization(step.org);
        await as('PATCH', `/organizations/${org}/members/${b.userId}`, { role: step.role }, org);
        return;
      }
      case 'removeMember':
      case 'setActive':
      case 'resetPassword': {
        const org = organization(step.org);
        if (step.kind === 'removeMember')
          await as('DELETE', `/organizations/${org}/members/${b.userId}`, undefined, org);
        if (step.kind === 'setActive') await as('POST', '/auth/organization/set-active', { organizationId: org });
        if (step.kind === 'resetPassword') {
          const link = await as('POST', `/organizations/${org}/members/${b.userId}/password-reset`, {}, org);
          if (link.body.token)
            await request(`${app.api}/auth/reset-password`, {
              method: 'POST',
              body: { token: link.body.token, newPassword: 'attacker chosen pass' },
            });
        }
        return;
      }
      case 'revokeBToken':
        await as('DELETE', `/auth/tokens/${bToken}`);
        return;
      case 'unlinkIdentity':
        await as('DELETE', '/auth/identities/oidc');
        return;
      case 'acceptBInvitation': {
        const org = mine[0] ?? a.organizationId;
        const invitation = await as(
          'POST',
          `/organizations/${org}/invitations`,
          { email: b.email, role: 'owner' },
          org,
        );
        if (invitation.body.token) await as('POST', `/invitations/${invitation.body.token}/accept`);
        return;
      }
      case 'guessBPassword':
        await request(`${app.api}/auth/sign-in/email`, {
          method: 'POST',
          body: { email: b.email, password: 'attacker chosen pass' },
        });
        return;
    }
  }

  it('holds for generated sequences of A’s actions', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('none', 'viewer', 'operator', 'admin'),
        fc.array(action, { minLength: 3, maxLength: 10 }),
        async (aRole, steps) => {
          const a = await signUp(app, 'a');
          const b = await signUp(app, 'b');
          if (aRole !== 'none') await addMember(app, owner, owner.organizationId, a, aRole);
          await addMember(app, owner, owner.organizationId, b, 'viewer');
          const bToken = (
            await request(`${app.api}/auth/tokens`, { method: 'POST', headers: asBrowser(app, b), body: { name: 'b' } })
          ).body.id as string;
          const em = app.services.persistence.fork();
          em.create(ExternalIdentity, {
            id: randomUUID(),
            userId: b.userId,
            provider: 'oidc',
            subject: `b-${b.userId}`,
            email: b.email,
            createdAt: new Date(),
            lastSignInAt: null,
          });
          await em.flush();
          const before = await accountOf(b, a);
          const mine: string[] = [];
          for (const step of steps) {
            await perform(step, a, b, bToken, mine);
            expect(await accountOf(b, a), `after ${JSON.stringify(step)}`).toEqual(before);
          }
          const signIn = await request(`${app.api}/auth/sign-in/email`, {
            method: 'POST',
            body: { email: b.email, password: testPassword },
          });
          expect(signIn.status, 'B still signs in with their own password').toBe(200);
          ran.push(`${aRole}: ${steps.map((step) => step.kind).join(',')}`);
        },
      ),
      { seed, numRuns: runs, endOnFailure: true },
    );
  }, 240_000);
});
