import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBullpen, type Bullpen } from 'bullpen';
import { AppError } from '../../contracts/app-error.js';
import { bootApp, request, testAuthSecret, type TestApp } from '../helpers/app.js';
import { testEncryptionKey } from '../helpers/connections.js';
import { asBrowser, signUp, type SignedInUser } from '../helpers/auth.js';
import { queryDatabase } from '../helpers/postgres.js';
import { repoRoot } from '../helpers/process.js';
import { seedQueue } from '../helpers/queues.js';
import { storeFixture } from '../helpers/stores.js';

const fixture = storeFixture();
const { SERVICE_AUTHLESS: _, ...connectionEnv } = fixture.env;
let app: TestApp;
let env: Record<string, string>;
let owner: SignedInUser;

/** The in-process example of docs/clients.md, exactly as written there. */
function documentedExample(): string {
  const clients = readFileSync(path.join(repoRoot, 'docs/clients.md'), 'utf8');
  const section = clients.slice(clients.indexOf('## Using Bullpen in-process'));
  return /```ts\n([\s\S]*?)```/.exec(section)![1]!;
}

/** The code an in-process call failed with: the AppError behind the TRPCError. */
async function failureCode(call: Promise<unknown>): Promise<string> {
  const error = await call.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const cause = (error as TRPCError).cause;
  expect(cause).toBeInstanceOf(AppError);
  return (cause as AppError).code;
}

beforeAll(async () => {
  // Authenticated server mode: the service over HTTP for sign-up, the tooling on the same database.
  app = await bootApp({ persistence: 'server', env: { ...connectionEnv, SERVICE_QUEUE_LIST_CACHE_MS: '0' } });
  if (app.config.persistence.mode !== 'server') throw new Error('expected server persistence');
  env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    AUTH_SECRET: testAuthSecret,
    SERVICE_ENCRYPTION_KEY: testEncryptionKey,
    DATABASE_URL: app.config.persistence.databaseUrl,
    ...connectionEnv,
  };
  owner = await signUp(app, 'owner');
});
afterAll(async () => {
  await app?.close();
  await fixture.cleanup();
});

describe('the in-process example of docs/clients.md', () => {
  it('runs verbatim: lists the queues of `main` and retries their failed jobs as the system', async () => {
    const queues = await Promise.all([
      seedQueue(fixture.bullmq, 'emails', { failed: 3, completed: 1 }),
      seedQueue(fixture.bullmq, 'reports', { completed: 2 }),
    ]);
    const name = `readme-example-${randomBytes(4).toString('hex')}`;
    const file = path.join(repoRoot, `test/in-process/${name}.ts`);
    const tsconfig = path.join(repoRoot, `test/in-process/${name}.tsconfig.json`);
    await writeFile(file, documentedExample());
    // It must also compile, strictly, against the package's own types.
    await writeFile(tsconfig, JSON.stringify({ extends: '../../tsconfig.json', include: [`${name}.ts`] }));
    try {
      await promisify(execFile)(path.join(repoRoot, 'node_modules/.bin/tsc'), ['-p', tsconfig], { cwd: repoRoot });
      // The sources (condition `bullpen-source`), as this repository's tests read them; the compiled entry has its own test.
      const run = await promisify(execFile)(path.join(repoRoot, 'node_modules/.bin/tsx'), [file], {
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: '--conditions=bullpen-source', ...env },
      });
      expect(run.stdout).toBe('emails: retried 3 failed jobs\n');
    } finally {
      await rm(file, { force: true });
      await rm(tsconfig, { force: true });
    }
    expect(await queues[0]!.getJobCounts('failed', 'wait', 'completed')).toEqual({ failed: 0, wait: 3, completed: 1 });
    const events = await queryDatabase<{
      actor_kind: string;
      action: string;
      user_id: string | null;
      outcome: string;
      organization_id: string;
    }>(
      env.DATABASE_URL!,
      `select actor_kind, action, user_id, outcome, organization_id from audit_event where action = 'jobs.retry'`,
    );
    expect(events).toEqual([
      {
        actor_kind: 'internal',
        action: 'jobs.retry',
        user_id: null,
        outcome: 'success',
        organization_id: app.services.persistence.localOrganizationId(),
      },
    ]);
    await Promise.all(queues.map((queue) => queue.close()));
  }, 180_000); // tsc compiles the whole graph behind the package entry: tens of seconds on a busy machine
});

describe('createBullpen identities', () => {
  let bullpen: Bullpen;
  beforeAll(async () => {
    bullpen = await createBullpen({ env });
  });
  afterAll(() => bullpen?.close());

  it('acts with a token: its role, in its organization', async () => {
    const created = await request(`${app.api}/auth/tokens`, {
      method: 'POST',
      headers: asBrowser(app, owner),
      body: { name: 'tool', role: 'viewer' },
    });
    const api = bullpen.api({ token: created.body.token });
    const mode = await api.system.session();
    expect(mode).toMatchObject({
      authenticated: true,
      role: 'viewer',
      activeOrganization: { id: owner.organizationId },
    });
    expect(await failureCode(api.organizations.update({ organizationId: owner.organizationId, name: 'renamed' }))).toBe(
      'FORBIDDEN',
    );
    expect(await failureCode(bullpen.api({ token: 'bp_not-a-token' }).connections.list())).toBe('UNAUTHORIZED');
    // Credentials are checked on every call, not once per api(): a revoked token stops working.
    await request(`${app.api}/auth/tokens/${created.body.id}`, { method: 'DELETE', headers: asBrowser(app, owner) });
    expect(await failureCode(api.connections.list())).toBe('UNAUTHORIZED');
  });

  it('acts as a user, in a named organization they belong to, and refuses one they do not', async () => {
    const api = bullpen.api({ userId: owner.userId, organizationId: owner.organizationId });
    expect(await api.system.session()).toMatchObject({
      role: 'owner',
      user: { id: owner.userId },
      activeOrganization: { id: owner.organizationId },
    });
    const stranger = await signUp(app, 'stranger');
    expect(
      await failureCode(
        bullpen.api({ userId: owner.userId, organizationId: stranger.organizationId }).connections.list(),
      ),
    ).toBe('FORBIDDEN');
    expect(await failureCode(bullpen.api({ userId: 'no-such-user' }).connections.list())).toBe('FORBIDDEN');
  });

  it('acts as the system: owner of the instance organization, audited as `internal`', async () => {
    const api = bullpen.api({ system: true });
    expect(await api.system.session()).toMatchObject({
      role: 'owner',
      user: null,
      activeOrganization: { id: app.services.persistence.localOrganizationId() },
    });
    await expect(api.queues.pause({ connectionId: 'main', queueName: 'reports' })).resolves.toMatchObject({
      isPaused: true,
    });
    const { events } = await api.audit.list({ action: 'queues.pause' });
    expect(events.map((event) => event.actor)).toEqual([{ kind: 'internal', userId: null, tokenId: null }]);
  });

  it('gives a reason with api(identity, { reason }): required where SERVICE_REQUIRE_REASON asks, kept in the audit event', async () => {
    const strict = await createBullpen({ env: { ...env, SERVICE_REQUIRE_REASON: 'destructive' } });
    const queue = await seedQueue(fixture.bullmq, 'in-process-reasons', { completed: 2 });
    try {
      const purge = (api: ReturnType<Bullpen['api']>) =>
        api.queues.purge({
          connectionId: 'main',
          queueName: queue.name,
          confirmName: queue.name,
          statuses: ['completed'],
        });
      expect(await failureCode(purge(strict.api({ system: true })))).toBe('REASON_REQUIRED');
      expect(await queue.getCompletedCount()).toBe(2);
      await expect(purge(strict.api({ system: true }, { reason: 'nightly tidy-up' }))).resolves.toMatchObject({
        totalRemoved: 2,
      });
      const { events } = await strict.api({ system: true }).audit.list({ action: 'queues.purge' });
      expect(events.slice(0, 2).map((event) => [event.outcome, event.reason])).toEqual([
        ['success', 'nightly tidy-up'],
        ['failure', null],
      ]);
    } finally {
      await queue.close();
      await strict.close();
    }
  });

  it('reads the configuration like the service: a bad variable is named', async () => {
    await expect(createBullpen({ env: { ...env, PORT: '99999' } })).rejects.toThrow(/Invalid PORT/);
  });
});
