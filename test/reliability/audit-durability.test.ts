import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneAuditEvents } from '../../server/audit/audit-retention.js';
import { cutMarker, maxLoggedLineBytes, recordAuditEvent } from '../../server/audit/record-audit-event.js';
import type { Persistence } from '../../server/persistence/persistence.js';
import { bootApp, persistenceKinds, request, type TestApp } from '../helpers/app.js';
import { addMember, asBrowser, signUp, sql, sqlTime, type SignedInUser } from '../helpers/auth.js';
import { testEncryptionKey } from '../helpers/connections.js';

describe.each(persistenceKinds)('the audit never loses an event (%s persistence)', (persistence) => {
  let app: TestApp;
  let owner: SignedInUser;
  let viewer: SignedInUser;
  let connectionId: string;
  beforeAll(async () => {
    app = await bootApp({ persistence, env: { SERVICE_ENCRYPTION_KEY: testEncryptionKey } });
    owner = await signUp(app, 'owner');
    viewer = await signUp(app, 'viewer');
    await addMember(app, owner, owner.organizationId, viewer, 'viewer');
    const created = await request(`${app.api}/connections`, {
      method: 'POST',
      headers: asBrowser(app, owner),
      body: { name: 'main', url: 'redis://127.0.0.1:6379/0' },
    });
    connectionId = created.body.id;
  });
  afterAll(() => app.close());

  const events = (where: string) =>
    sql<{ queue_name: string | null; outcome: string; procedure: string; counts: string | null }>(
      app,
      `select * from audit_event where ${where}`,
    );

  it('cuts a value longer than its column with a marker instead of losing the event', async () => {
    const queueName = `huge-${'q'.repeat(100_000)}`;
    await request(`${app.api}/trpc/queues.pause`, {
      method: 'POST',
      headers: asBrowser(app, owner),
      body: { connectionId, queueName },
    });
    const [event] = await events(`procedure = 'queues.pause'`);
    expect(event).toBeDefined();
    expect(event!.queue_name!.length).toBeLessThanOrEqual(1000);
    expect(event!.queue_name!.endsWith(cutMarker)).toBe(true);
    expect(app.logs.join('')).not.toContain('AUDIT TRAIL WRITE FAILED');
  });

  it('retries a failed write once, and logs one that fails twice in at most 2 KB', async () => {
    const actor = {
      kind: 'user' as const,
      userId: owner.userId,
      tokenId: null,
      organizationId: owner.organizationId,
      role: 'owner' as const,
    };
    const input = {
      actor,
      action: 'queues.pause',
      procedure: 'test.retry',
      connectionId,
      queueName: 'x'.repeat(5000),
      parameters: { big: 'y'.repeat(50_000) },
      outcome: 'success' as const,
      errorCode: null,
      counts: null,
    };
    let attempts = 0;
    const flaky: Persistence = {
      ...app.services.persistence,
      fork: () =>
        attempts++ === 0
          ? (() => {
              throw new Error('connection reset');
            })()
          : app.services.persistence.fork(),
    };
    await recordAuditEvent({ persistence: flaky, logger: app.services.logger }, input);
    expect(await events(`procedure = 'test.retry'`)).toHaveLength(1);

    const broken: Persistence = {
      ...app.services.persistence,
      fork: () => {
        throw new Error('database gone');
      },
    };
    await recordAuditEvent({ persistence: broken, logger: app.services.logger }, { ...input, procedure: 'test.lost' });
    const line = app.logs.find(
      (logged) => logged.includes('AUDIT TRAIL WRITE FAILED') && logged.includes('test.lost'),
    )!;
    expect(line).toBeDefined();
    expect(Buffer.byteLength(line)).toBeLessThanOrEqual(maxLoggedLineBytes);
  });

  it('deletes events past SERVICE_AUDIT_DAYS, and keeps all with 0', async () => {
    await sql(
      app,
      `update audit_event set "at" = ${sqlTime(app, new Date(Date.now() - 400 * 86_400_000))} where "procedure" = 'test.retry'`,
    );
    expect(await pruneAuditEvents(app.services.persistence, 0)).toBe(0);
    expect(await events(`procedure = 'test.retry'`)).toHaveLength(1);
    expect(await pruneAuditEvents(app.services.persistence, 365)).toBe(1);
    expect(await events(`procedure = 'test.retry'`)).toHaveLength(0);
    expect((await events(`procedure = 'queues.pause'`)).length).toBe(1);
  });

  it('exports the trail as NDJSON for admins, audited itself; viewers are refused', async () => {
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const response = await fetch(`${app.api}/audit/export?from=${encodeURIComponent(from)}`, {
      headers: { cookie: owner.cookie },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.procedure)).toEqual(expect.arrayContaining(['connections.create', 'queues.pause']));
    expect(lines.every((line) => line.organizationId === owner.organizationId)).toBe(true);
    const times = lines.map((line) => line.at);
    expect([...times].sort()).toEqual(times);
    const future = await fetch(
      `${app.api}/audit/export?from=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`,
      { headers: { cookie: owner.cookie } },
    );
    expect(await future.text()).toBe('');

    const refused = await request(`${app.api}/audit/export`, {
      headers: { cookie: viewer.cookie, 'x-organization-id': owner.organizationId },
    });
    expect(refused.status).toBe(403);
    const exports = await events(`procedure = 'audit.export'`);
    expect(exports.map((event) => event.outcome).sort()).toEqual(['denied', 'success', 'success']);
    expect(exports.some((event) => event.counts?.includes(`"exported":${lines.length}`))).toBe(true);
  });
});
