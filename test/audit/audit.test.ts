import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactParameters, resultCounts } from '../../server/audit/redact.js';
import { recordAuditEvent } from '../../server/audit/record-audit-event.js';
import { bootApp, persistenceKinds, request, type TestApp } from '../helpers/app.js';
import { addMember, asBrowser, signUp, sql, type SignedInUser } from '../helpers/auth.js';
import { bodyFor, fillPath, permissionedRoutes } from '../helpers/routes.js';

describe('audit parameter redaction', () => {
  it('masks passwords in URLs, blanks credential keys, keeps ids', () => {
    const redacted = redactParameters({
      url: 'redis://admin:hunter2@cache:6379/0',
      seeds: 'redis://:pw1@a:1,redis://:pw2@b:2',
      password: 'hunter2',
      newToken: 'bp_secret',
      tls: { secret: 'x' },
      tokenId: 'tok-1',
      jobIds: ['1', '2'],
    });
    expect(JSON.stringify(redacted)).not.toMatch(/hunter2|pw1|pw2|bp_secret/);
    expect(redacted).toMatchObject({
      password: '[redacted]',
      newToken: '[redacted]',
      tls: { secret: '[redacted]' },
      tokenId: 'tok-1',
      jobIds: ['1', '2'],
    });
  });

  it('cuts large payloads', () => {
    const redacted = redactParameters({ data: 'x'.repeat(5000), ids: Array.from({ length: 150 }, (_, i) => i) }) as {
      data: string;
      ids: unknown[];
    };
    expect(redacted.data.length).toBeLessThan(1100);
    expect(redacted.ids).toHaveLength(101);
  });

  it('keeps the figures a result reports', () => {
    expect(
      resultCounts({
        success: true,
        totalRemoved: 2500,
        removedByStatus: { failed: 2000, completed: 500 },
        removedJobIdsSample: ['1'],
      }),
    ).toEqual({
      totalRemoved: 2500,
      removedByStatus: { failed: 2000, completed: 500 },
    });
    expect(resultCounts({ results: [], succeeded: 3, failed: 1 })).toEqual({ succeeded: 3, failed: 1 });
    expect(resultCounts({ success: true })).toBeNull();
  });
});

describe.each(persistenceKinds)('audit trail (%s persistence)', (persistence) => {
  let app: TestApp;
  let owner: SignedInUser;
  beforeAll(async () => {
    app = await bootApp({ persistence });
    owner = await signUp(app, 'owner');
  });
  afterAll(() => app.close());

  const audit = async (query: string, user: SignedInUser = owner) =>
    request(`${app.api}/audit?${query}`, { headers: { cookie: user.cookie } });

  it('records one event for every mutating route, under its permission, whatever the outcome', async () => {
    const mutations = permissionedRoutes().filter((route) => route.mutation);
    for (const route of mutations) {
      await request(
        `${app.api}${fillPath(route.path, { organizationId: owner.organizationId, connectionId: 'main' })}`,
        {
          method: route.method,
          headers: asBrowser(app, owner),
          body: bodyFor(route.method),
        },
      );
    }
    const actions = new Set<string>();
    let cursor = '';
    do {
      const page = (await audit(`limit=100${cursor ? `&cursor=${cursor}` : ''}`)).body;
      for (const event of page.events) actions.add(event.action);
      cursor = page.nextCursor ?? '';
    } while (cursor);
    expect([...actions].sort()).toEqual(
      expect.arrayContaining([...new Set(mutations.map((route) => route.permission))].sort()),
    );
  });

  it('records who, what, outcome and counts, and never the token value', async () => {
    const created = await request(`${app.api}/auth/tokens`, {
      method: 'POST',
      headers: asBrowser(app, owner),
      body: { name: 'deploy', role: 'viewer' },
    });
    const { events } = (await audit('action=tokens.manage&limit=100')).body;
    const event = events.find((entry: { parameters: { name?: string } }) => entry.parameters?.name === 'deploy');
    expect(event).toMatchObject({
      organizationId: owner.organizationId,
      actor: { kind: 'user', userId: owner.userId, tokenId: null },
      action: 'tokens.manage',
      procedure: 'auth.createToken',
      outcome: 'success',
      errorCode: null,
    });
    const rows = JSON.stringify(await sql(app, 'select * from "audit_event"'));
    expect(rows).not.toContain(created.body.token);

    await request(`${app.api}/connections`, {
      method: 'POST',
      headers: asBrowser(app, owner),
      body: { name: 'secretive', url: 'redis://:s3cret-pw@127.0.0.1:1/0' },
    });
    const [connectionEvent] = (await audit('action=connections.write&limit=1')).body.events;
    expect(connectionEvent.parameters.url).toBe('redis://:****@127.0.0.1:1/0');
    expect(JSON.stringify(await sql(app, 'select * from "audit_event"'))).not.toContain('s3cret-pw');

    const removal = await request(`${app.api}/organizations/${owner.organizationId}/members/${owner.userId}`, {
      method: 'DELETE',
      headers: asBrowser(app, owner),
    });
    expect(removal.status).toBe(409);
    const [refused] = (await audit('action=members.write&limit=1')).body.events;
    expect(refused).toMatchObject({
      outcome: 'failure',
      errorCode: 'LAST_OWNER',
      parameters: { organizationId: owner.organizationId, userId: owner.userId },
    });
  });

  it('records refused attempts as denied, and is readable by admins only', async () => {
    const viewer = await signUp(app, 'viewer');
    await addMember(app, owner, owner.organizationId, viewer, 'viewer');
    const headers = asBrowser(app, viewer, { 'x-organization-id': owner.organizationId });
    expect(
      (
        await request(`${app.api}/organizations/${owner.organizationId}`, {
          method: 'PATCH',
          headers,
          body: { name: 'mine now' },
        })
      ).status,
    ).toBe(403);
    const [denied] = (await audit('action=organizations.write&limit=1')).body.events;
    expect(denied).toMatchObject({ outcome: 'denied', errorCode: 'FORBIDDEN', actor: { userId: viewer.userId } });
    const asViewer = await request(`${app.api}/audit`, { headers });
    expect(asViewer.status).toBe(403);
  });

  it('filters by connection, action and time, and pages by cursor', async () => {
    const other = await signUp(app, 'filters');
    const actor = {
      kind: 'user' as const,
      userId: other.userId,
      tokenId: null,
      organizationId: other.organizationId,
      role: 'owner' as const,
    };
    const base = {
      actor,
      procedure: 'queues.purge',
      queueName: 'emails',
      parameters: {},
      outcome: 'success' as const,
      errorCode: null,
      counts: { totalRemoved: 3 },
    };
    const from = new Date().toISOString();
    for (let i = 0; i < 5; i += 1)
      await recordAuditEvent(app.services, { ...base, action: 'queues.purge', connectionId: i % 2 ? 'alpha' : 'beta' });
    await recordAuditEvent(app.services, { ...base, action: 'queues.clean', connectionId: 'alpha' });
    const read = async (query: string) => (await audit(query, other)).body;

    const alphaPurges = await read(`connectionId=alpha&action=queues.purge&from=${from}`);
    expect(alphaPurges.events).toHaveLength(2);
    expect(alphaPurges.events[0]).toMatchObject({
      connectionId: 'alpha',
      queueName: 'emails',
      counts: { totalRemoved: 3 },
    });
    expect(
      (await read(`to=${from}`)).events.filter((event: { procedure: string }) => event.procedure === 'queues.purge'),
    ).toEqual([]);

    const seen: string[] = [];
    let page = await read(`from=${from}&limit=2`);
    seen.push(...page.events.map((event: { id: string }) => event.id));
    while (page.nextCursor) {
      page = await read(`from=${from}&limit=2&cursor=${page.nextCursor}`);
      seen.push(...page.events.map((event: { id: string }) => event.id));
    }
    expect(seen).toHaveLength(6);
    expect(new Set(seen).size).toBe(6);
    expect((await audit('cursor=garbage', other)).status).toBe(400);
  });

  it('logs a failed audit write loudly and still answers the action', async () => {
    await sql(app, 'alter table "audit_event" rename to "audit_event_away"');
    try {
      const created = await request(`${app.api}/organizations`, {
        method: 'POST',
        headers: asBrowser(app, owner),
        body: { name: 'Unaudited' },
      });
      expect(created.status).toBe(201);
      expect(created.body.name).toBe('Unaudited');
    } finally {
      await sql(app, 'alter table "audit_event_away" rename to "audit_event"');
    }
    const line = app.logs.find((entry) => entry.includes('AUDIT TRAIL WRITE FAILED'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({
      level: 50,
      auditEvent: { action: 'organizations.create', outcome: 'success', userId: owner.userId },
    });
  });
});
