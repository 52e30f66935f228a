import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { addMember, asBrowser, bearer, signUp, sql, type SignedInUser } from '../helpers/auth.js';
import { deleteKeysMatching, redisUrl, uniquePrefix } from '../helpers/stores.js';
import { Redis } from 'ioredis';

/** Who may export and import definitions (admins and owners), and that an organization reaches only its own. */
describe('definitions: roles and organizations', () => {
  let app: TestApp;
  let owner: SignedInUser;
  let operator: SignedInUser;
  let admin: SignedInUser;
  let outsider: SignedInUser;
  const prefix = uniquePrefix('acl');
  const call = (path: string, headers: Record<string, string>, init: { method?: string; body?: unknown } = {}) =>
    request(`${app.api}${path}`, { ...init, headers });

  beforeAll(async () => {
    app = await bootApp({ env: { SERVICE_SIGNUP: 'open' } });
    owner = await signUp(app, 'owner');
    operator = await signUp(app, 'operator');
    admin = await signUp(app, 'admin');
    outsider = await signUp(app, 'outsider');
    await addMember(app, owner, owner.organizationId, operator, 'operator');
    await addMember(app, owner, owner.organizationId, admin, 'admin');
    const inA = (user: SignedInUser) => asBrowser(app, user, { 'x-organization-id': owner.organizationId });
    expect(
      (await call('/connections', inA(owner), { method: 'POST', body: { name: 'main', url: `${redisUrl}/0`, prefix } }))
        .status,
    ).toBe(201);
    expect(
      (
        await call('/c/main/alerts/rules', inA(owner), {
          method: 'POST',
          body: { name: 'backlog', type: 'backlog', threshold: 10, windowMinutes: 5 },
        })
      ).status,
    ).toBe(201);
  });
  afterAll(async () => {
    await app?.close();
    const redis = new Redis(redisUrl);
    await deleteKeysMatching(redis, `${prefix}:*`);
    redis.disconnect();
  });

  const inA = (user: SignedInUser) => asBrowser(app, user, { 'x-organization-id': owner.organizationId });

  it('refuses an operator both ways (403, permission named) and lets admins, owners and an admin token through', async () => {
    const exported = await call('/definitions', inA(operator));
    expect(exported.status).toBe(403);
    expect(exported.body).toMatchObject({ code: 'FORBIDDEN', permission: 'definitions.read' });
    const imported = await call('/definitions', inA(operator), {
      method: 'POST',
      body: { definitions: { bullpenDefinitions: 1 }, dryRun: true },
    });
    expect(imported.body).toMatchObject({ code: 'FORBIDDEN', permission: 'definitions.write' });
    expect((await call('/definitions', inA(admin))).status).toBe(200);
    expect((await call('/definitions', inA(owner))).body.connections.map((c: { name: string }) => c.name)).toEqual([
      'main',
    ]);
    const token = await call('/auth/tokens', inA(admin), { method: 'POST', body: { name: 'ci', role: 'admin' } });
    const byToken = await call('/definitions', bearer(token.body.token), {
      method: 'POST',
      body: { definitions: { bullpenDefinitions: 1 }, dryRun: true },
    });
    expect(byToken.status).toBe(200);
    expect(byToken.body.changes).toContainEqual({ kind: 'connection', name: 'main', action: 'notInFile' });
  });

  it("keeps each organization to its own: another organization's export holds none of A's, and its import creates its own", async () => {
    const document = (await call('/definitions', inA(owner))).body;
    const mine = asBrowser(app, outsider);
    expect((await call('/definitions', mine)).body.connections).toEqual([]);
    const before = await sql(app, `select * from "connection" where "organization_id" = '${owner.organizationId}'`);
    const rulesBefore = await sql(
      app,
      `select * from "alert_rule" where "organization_id" = '${owner.organizationId}'`,
    );
    const imported = await call('/definitions', mine, { method: 'POST', body: { definitions: document } });
    expect(imported.status).toBe(200);
    expect(imported.body.changes).toEqual(
      expect.arrayContaining([
        { kind: 'connection', name: 'main', action: 'create' },
        { kind: 'alertRule', name: 'main/backlog', action: 'create' },
      ]),
    );
    expect(await sql(app, `select * from "connection" where "organization_id" = '${owner.organizationId}'`)).toEqual(
      before,
    );
    expect(await sql(app, `select * from "alert_rule" where "organization_id" = '${owner.organizationId}'`)).toEqual(
      rulesBefore,
    );
    const theirs = await sql<{ id: string }>(
      app,
      `select "id" from "connection" where "organization_id" = '${outsider.organizationId}'`,
    );
    expect(theirs).toHaveLength(1);
    expect(theirs[0]!.id).not.toBe(before[0]!.id);
  });
});

describe("definitions: Bullpen's records change in one transaction", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({ env: { SERVICE_AUTHLESS: 'true', SERVICE_CONNECTION_ALLOW: '127.0.0.1:6379' } });
  });
  afterAll(() => app?.close());

  it('rolls the destination back when a connection after it is refused (SERVICE_CONNECTION_ALLOW)', async () => {
    const definitions = {
      bullpenDefinitions: 1,
      alertDestinations: [
        { name: 'pager', type: 'webhook', target: { secret: 'pager.url' }, signingSecret: { secret: 'pager.key' } },
      ],
      connections: [{ name: 'elsewhere', url: 'redis://127.0.0.1:6499/0', credentials: null }],
    };
    const secrets = { 'pager.url': 'http://127.0.0.1:9/hook', 'pager.key': 'whsec_x' };
    const refused = await request(`${app.api}/definitions`, { method: 'POST', body: { definitions, secrets } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('CONNECTION_TARGET_FORBIDDEN');
    expect(await sql(app, 'select * from "alert_destination"')).toEqual([]);
    expect(await sql(app, 'select * from "connection"')).toEqual([]);
  });
});
