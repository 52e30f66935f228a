import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, persistenceKinds, request, type TestApp } from '../helpers/app.js';
import { sql } from '../helpers/auth.js';
import { waitFor } from '../helpers/jobs.js';
import { startOwnRedis, type OwnRedis } from '../reliability/support/own-redis.js';
import { uniquePrefix } from '../helpers/stores.js';

/**
 * Definitions (issue 33, item 2): export from one service, import into another, on a store that
 * needs a password (its own redis-server on 6477), real BullMQ workers running what an imported
 * scheduler produces. Both persistence modes.
 */
const password = 'p4ss-w0rd-for-defs';
const port = 6477;

describe.each(persistenceKinds)('definitions export and import (%s persistence)', (persistence) => {
  let redis: OwnRedis;
  let source: TestApp;
  let target: TestApp;
  let document: any;
  let destinationSecret: string;
  const prefix = uniquePrefix('defs');
  const storeUrl = `redis://:${password}@127.0.0.1:${port}/0`;
  const hookUrl = 'http://127.0.0.1:9/hooks/very-secret-path';
  const call = (app: TestApp, path: string, init: Parameters<typeof request>[1] = {}) =>
    request(`${app.api}${path}`, init);
  const secrets = () => ({
    'connections.primary.url': storeUrl,
    'alertDestinations.oncall.url': hookUrl,
    'alertDestinations.oncall.signingSecret': destinationSecret,
  });
  const importInto = (app: TestApp, body: Record<string, unknown>) =>
    call(app, '/definitions', { method: 'POST', body });
  const records = async (app: TestApp) => ({
    connections: await sql(app, 'select * from "connection" order by "name"'),
    rules: await sql(app, 'select * from "alert_rule" order by "name"'),
    destinations: await sql(app, 'select * from "alert_destination" order by "name"'),
  });

  beforeAll(async () => {
    redis = await startOwnRedis(port, password);
    source = await bootApp({ persistence, env: { SERVICE_AUTHLESS: 'true' } });
    target = await bootApp({ persistence, env: { SERVICE_AUTHLESS: 'true' } });
    const primary = await call(source, '/connections', {
      method: 'POST',
      body: { name: 'primary', url: storeUrl, prefix, protection: 'confirm', environment: 'production' },
    });
    expect(primary.status).toBe(201);
    const queue = new Queue('emails', { connection: { host: '127.0.0.1', port, password }, prefix });
    await queue.add('welcome', { to: 'a@example.test' });
    await queue.close();
    expect(
      (await call(source, '/c/primary/queues/emails/global-concurrency', { method: 'PUT', body: { concurrency: 4 } }))
        .status,
    ).toBe(200);
    expect(
      (
        await call(source, '/c/primary/queues/emails/global-rate-limit', {
          method: 'PUT',
          body: { max: 50, durationMs: 1000 },
        })
      ).status,
    ).toBe(200);
    const scheduler = await call(source, '/c/primary/scheduled-jobs/queue/emails', {
      method: 'POST',
      body: {
        schedulerId: 'digest',
        name: 'digest',
        data: { kind: 'daily' },
        schedule: { type: 'cron', pattern: '0 7 * * *', timezone: 'Europe/Paris' },
        options: { attempts: 3, removeOnComplete: 100 },
      },
    });
    expect(scheduler.status).toBe(201);
    const destination = await call(source, '/alerts/destinations', {
      method: 'POST',
      body: { type: 'webhook', name: 'oncall', url: hookUrl },
    });
    destinationSecret = destination.body.secret;
    const rule = await call(source, '/c/primary/alerts/rules', {
      method: 'POST',
      body: {
        name: 'emails failing',
        type: 'failed_count',
        threshold: 5,
        windowMinutes: 10,
        queues: { include: ['emails'], exclude: [] },
        destinationIds: [destination.body.id],
      },
    });
    expect(rule.status).toBe(201);
  });

  afterAll(async () => {
    await source?.close();
    await target?.close();
    await redis?.stop();
  });

  it('exports one versioned document without a secret: URLs without credentials, secrets named', async () => {
    const exported = await call(source, '/definitions');
    expect(exported.status).toBe(200);
    document = exported.body;
    const text = JSON.stringify(document);
    for (const secret of [password, 'very-secret-path', destinationSecret]) expect(text).not.toContain(secret);
    expect(document).toMatchObject({
      bullpenDefinitions: 1,
      alertDestinations: [{ name: 'oncall', type: 'webhook', url: 'http://127.0.0.1:9/…' }],
    });
    expect(document.alertDestinations[0].target).toEqual({
      secret: 'alertDestinations.oncall.url',
      env: 'BULLPEN_SECRET_ALERTDESTINATIONS_ONCALL_URL',
    });
    const [primary] = document.connections;
    expect(primary).toMatchObject({
      name: 'primary',
      source: 'saved',
      url: `redis://127.0.0.1:${port}/0`,
      credentials: { secret: 'connections.primary.url', env: 'BULLPEN_SECRET_CONNECTIONS_PRIMARY_URL' },
      environment: 'production',
      prefixes: [prefix],
      protection: 'confirm',
      isDefault: true,
      queues: [{ queueName: 'emails', prefix, globalConcurrency: 4, globalRateLimit: { max: 50, durationMs: 1000 } }],
      schedulers: [
        {
          queueName: 'emails',
          prefix,
          schedulerId: 'digest',
          name: 'digest',
          data: { kind: 'daily' },
          schedule: { type: 'cron', pattern: '0 7 * * *', timezone: 'Europe/Paris' },
          options: { attempts: 3, removeOnComplete: 100 },
        },
      ],
      alertRules: [
        {
          name: 'emails failing',
          type: 'failed_count',
          threshold: 5,
          windowMinutes: 10,
          destinations: ['oncall'],
          cooldownMinutes: 15,
          enabled: true,
        },
      ],
    });
  });

  it('answers the diff of a dry run, naming the secrets it needs, and a real import without them is 400 with nothing changed', async () => {
    const before = await records(target);
    const dry = await importInto(target, { definitions: document, dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      dryRun: true,
      applied: false,
      summary: { create: 5, change: 0, unchanged: 0, notInFile: 0 },
    });
    expect(dry.body.changes).toEqual(
      expect.arrayContaining([
        { kind: 'connection', name: 'primary', action: 'create' },
        { kind: 'alertDestination', name: 'oncall', action: 'create' },
        { kind: 'scheduler', name: 'primary/emails/digest', action: 'create' },
        { kind: 'queueSettings', name: 'primary/emails', action: 'create' },
        { kind: 'alertRule', name: 'primary/emails failing', action: 'create' },
      ]),
    );
    expect(dry.body.missingSecrets.map((missing: { secret: string }) => missing.secret).sort()).toEqual([
      'alertDestinations.oncall.signingSecret',
      'alertDestinations.oncall.url',
      'connections.primary.url',
    ]);
    expect(dry.body.missingSecrets).toContainEqual({
      secret: 'connections.primary.url',
      env: 'BULLPEN_SECRET_CONNECTIONS_PRIMARY_URL',
      for: 'connection primary (create)',
    });
    const refused = await importInto(target, { definitions: document });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('SECRETS_MISSING');
    expect(refused.body.missingSecrets).toHaveLength(3);
    expect(await records(target)).toEqual(before);
  });

  it('applies with the secrets, so that the target exports what the source did; a second import changes nothing', async () => {
    const applied = await importInto(target, { definitions: document, secrets: secrets() });
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ applied: true, missingSecrets: [] });
    expect(JSON.stringify(applied.body)).not.toContain(password);
    const again = (await call(target, '/definitions')).body;
    expect({ ...again, exportedAt: null }).toEqual({ ...document, exportedAt: null });
    // The connection works with the password it was given, and the destination signs with the secret its receivers hold.
    expect((await call(target, '/c/primary/queues/emails')).status).toBe(200);
    const [sealed] = await sql<{ id: string; secret_sealed: string }>(
      target,
      'select "id", "secret_sealed" from "alert_destination"',
    );
    expect(target.services.secretCipher.decrypt(sealed!.secret_sealed, `${sealed!.id}:secret`)).toBe(destinationSecret);

    // The audit trail names the import and keeps none of its secrets; neither does the log.
    const audit = JSON.stringify(
      await sql(target, `select * from "audit_event" where "procedure" = 'definitions.import'`),
    );
    expect(audit).toContain('definitions.write');
    for (const secret of [password, 'very-secret-path', destinationSecret]) {
      expect(audit).not.toContain(secret);
      expect(target.logs.join('')).not.toContain(secret);
    }

    const before = await records(target);
    const twice = await importInto(target, { definitions: again, secrets: secrets() });
    expect(twice.body).toMatchObject({ applied: false, summary: { create: 0, change: 0, unchanged: 5, notInFile: 0 } });
    expect(await records(target)).toEqual(before);
  });

  it('changes what differs, reports what it does not mention, and writes queue settings and schedulers a real worker then runs', async () => {
    const fresh = uniquePrefix('defs2');
    const edited = structuredClone(document);
    const [primary] = edited.connections;
    primary.prefixes = [fresh];
    primary.queues = [{ queueName: 'reports', prefix: fresh, globalConcurrency: 2, globalRateLimit: null }];
    primary.schedulers = [
      {
        queueName: 'reports',
        prefix: fresh,
        schedulerId: 'tick',
        name: 'tick',
        data: { n: 1 },
        schedule: { type: 'every', everyMs: 300 },
      },
    ];
    primary.alertRules[0].threshold = 9;
    const answer = await importInto(target, { definitions: edited, secrets: secrets() });
    expect(answer.status).toBe(200);
    expect(answer.body.changes).toEqual(
      expect.arrayContaining([
        { kind: 'connection', name: 'primary', action: 'change', fields: ['prefixes'] },
        { kind: 'alertRule', name: 'primary/emails failing', action: 'change', fields: ['threshold'] },
        { kind: 'queueSettings', name: 'primary/reports', action: 'create' },
        { kind: 'scheduler', name: 'primary/reports/tick', action: 'create' },
        { kind: 'alertDestination', name: 'oncall', action: 'unchanged' },
      ]),
    );
    const connection = { host: '127.0.0.1', port, password };
    const reports = new Queue('reports', { connection, prefix: fresh });
    expect(await reports.getGlobalConcurrency()).toBe(2);
    expect((await reports.getJobScheduler('tick'))?.every).toBe(300);
    const ran: string[] = [];
    const worker = new Worker('reports', async (job) => void ran.push(job.name), { connection, prefix: fresh });
    await waitFor(() => ran.length >= 2, 10_000, 'the imported scheduler to produce jobs a worker runs');
    await worker.close();
    await reports.removeJobScheduler('tick');
    await reports.close();
    // The emails queue under the old prefix is not in the document any more: reported, left as it is.
    const dry = await importInto(target, {
      definitions: { ...edited, connections: [{ ...primary, queues: [], schedulers: [] }] },
      dryRun: true,
    });
    expect(dry.body.changes).toEqual(
      expect.arrayContaining([{ kind: 'queueSettings', name: 'primary/reports', action: 'notInFile' }]),
    );
  });

  it('refuses what is wrong in the document, naming it, before anything changes', async () => {
    const before = await records(target);
    const bad = [
      { definitions: { ...document, bullpenDefinitions: 2 } },
      {
        definitions: { ...document, connections: [document.connections[0], document.connections[0]] },
        secrets: secrets(),
      },
      {
        definitions: {
          ...document,
          connections: [
            {
              ...document.connections[0],
              alertRules: [{ ...document.connections[0].alertRules[0], destinations: ['nobody'] }],
            },
          ],
        },
        secrets: secrets(),
      },
      {
        definitions: document,
        secrets: { ...secrets(), 'connections.primary.url': `redis://:${password}@127.0.0.2:${port}/0` },
      },
      {
        definitions: {
          ...document,
          connections: [
            {
              ...document.connections[0],
              schedulers: [
                { ...document.connections[0].schedulers[0], schedule: { type: 'cron', pattern: 'every day' } },
              ],
            },
          ],
        },
        secrets: secrets(),
      },
      {
        definitions: { ...document, connections: [{ ...document.connections[0], url: storeUrl }] },
        secrets: secrets(),
      },
      { definitions: document, secrets: secrets(), extra: true },
      {
        definitions: {
          ...document,
          connections: [document.connections[0], { ...document.connections[0], name: 'second' }],
        },
        secrets: secrets(),
      },
    ];
    const messages: string[] = [];
    for (const body of bad) {
      const answer = await importInto(target, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      messages.push(answer.body.message);
    }
    expect(messages[1]).toMatch(/names the connection "primary" twice/);
    expect(messages[2]).toMatch(/unknown alert destination\(s\): nobody/);
    expect(messages[3]).toMatch(/Secret "connections.primary.url" is a URL of another store/);
    expect(messages[4]).toMatch(/Job scheduler primary\/emails\/digest: .*pattern/);
    expect(messages[5]).toMatch(/url carries credentials/);
    expect(messages[7]).toMatch(/more than one connection the default/);
    for (const message of messages) expect(message).not.toContain(password);
    expect(await records(target)).toEqual(before);
  });

  it('refuses queue settings and schedulers on a read-only connection (403 CONNECTION_PROTECTED), the store and records unchanged', async () => {
    const store = new Redis({ host: '127.0.0.1', port, password });
    const guarded = uniquePrefix('ro');
    await call(target, '/connections', {
      method: 'POST',
      body: { name: 'guarded', url: storeUrl, prefix: guarded, protection: 'read-only' },
    });
    const before = await records(target);
    const edited = {
      ...document,
      connections: [
        {
          name: 'guarded',
          schedulers: [{ queueName: 'q', schedulerId: 's', name: 's', schedule: { type: 'every', everyMs: 60_000 } }],
        },
      ],
    };
    const refused = await importInto(target, { definitions: edited });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'CONNECTION_PROTECTED',
      protection: 'read-only',
      permission: 'schedulers.write',
    });
    expect(await store.keys(`${guarded}:*`)).toEqual([]);
    expect(await records(target)).toEqual(before);
    // Lifting the protection in the same document does not pass it: the connection is read-only now.
    const lifted = await importInto(target, {
      definitions: { ...edited, connections: [{ ...edited.connections[0], protection: 'none' }] },
    });
    expect(lifted.status).toBe(403);
    store.disconnect();
  });
});
