import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { compiledServiceEntry } from '../helpers/compiled-service.js';
import { createTestDatabase, queryDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startServiceProcess, type ServiceProcess } from '../helpers/process.js';
import { migrations } from '../../server/persistence/migrations/index.js';
import { embeddedDatabaseFile } from '../../server/persistence/orm.js';
import { chaosSize } from '../chaos/support/chaos-size.js';
import { startGatedProxy, type GatedProxy } from './support/gated-proxy.js';
import { browser, signUpOn, startReplica, type Replica } from './support/replicas.js';

const appliedOnce = migrations.map(({ name }) => ({ name, times: 1 }));
/** Each race is won differently from round to round: one round in `npm test`, every round in `npm run chaos`. */
const rounds = (full: number) => Array.from({ length: chaosSize(1, full) }, (_, index) => index + 1);

/**
 * Two replicas started at the same moment on a fresh PostgreSQL database: the
 * migration lock makes the second wait for the first's migrations and then
 * find nothing to do. Without it the two raced on the first migration and
 * the loser answered 503 until its retry 5 s later.
 */
describe('two replicas starting at once on a fresh PostgreSQL database', () => {
  let database: TestDatabase | undefined;
  let proxy: GatedProxy | undefined;
  let replicas: Replica[] = [];

  afterEach(async () => {
    await Promise.all(replicas.map((replica) => replica.stop()));
    replicas = [];
    await proxy?.close();
    await database?.drop();
  });

  it.each(rounds(3))(
    'round %i: both serve at once (no 503), every migration applied once, one local organization',
    async () => {
      database = await createTestDatabase();
      // The gate holds each process's first database connection until both have one, so their migrations start together.
      proxy = await startGatedProxy({ host: '127.0.0.1', port: 5432 }, { holdUntil: 2, maxHoldMs: 3000 });
      const viaProxy = database.url.replace('127.0.0.1:5432', `127.0.0.1:${proxy.port}`);
      replicas = await Promise.all([
        startReplica(viaProxy, {}, { compiled: true }),
        startReplica(viaProxy, {}, { compiled: true }),
      ]);
      expect(await proxy.opened).toBeGreaterThanOrEqual(2);

      for (const replica of replicas) {
        // openPersistence finishes before the service listens: a replica that lost a race would be degraded now.
        expect((await request(`${replica.api}/health`)).body?.status).toBe('ok');
        await signUpOn(replica.api, 'first-start');
        expect(replica.process.output()).not.toMatch(/database unavailable|startup chores .* did not run/);
      }
      const waited = replicas.filter((replica) =>
        /another instance is migrating/.test(replica.process.output()),
      ).length;
      console.info(`replicas that waited for the other's migrations: ${waited}`);
      const applied = await queryDatabase<{ name: string; times: number }>(
        database.url,
        'select name, count(*)::int as times from mikro_orm_migrations group by name order by name',
      );
      expect(applied).toEqual(appliedOnce);
      const local = await queryDatabase(database.url, 'select id from organization where is_local');
      expect(local).toHaveLength(1);
    },
    90_000,
  );
});

/**
 * Embedded mode is meant for one process, but two started on one fresh data
 * directory must not break: the one that meets the other's lock or rows tries
 * again, and both keep the one set of generated secrets. (No gate here: the
 * race is as tight as the two starts; four rounds in `npm run chaos`.)
 */
describe('two processes starting at once on one fresh embedded data directory', () => {
  let directory: string | undefined;
  let processes: ServiceProcess[] = [];

  afterEach(async () => {
    for (const service of processes) service.child.kill('SIGTERM');
    await Promise.all(processes.map((service) => service.exited));
    processes = [];
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it.each(rounds(4))(
    'round %i: both serve at once, every migration applied once, one local organization, one encryption key',
    async () => {
      directory = await mkdtemp(path.join(os.tmpdir(), 'bullpen-two-starts-'));
      const entry = await compiledServiceEntry();
      const env = {
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'info',
        SERVICE_EMBEDDED_DIR: directory,
        SERVICE_SIGNUP: 'open',
        APP_BASE_URL: 'http://localhost:3000',
      };
      processes = [startServiceProcess(env, { entry }), startServiceProcess(env, { entry })];
      const [one, two] = await Promise.all(
        processes.map(
          async (service) => `${(await service.waitForOutput(/http:\/\/127\.0\.0\.1:\d+/, 30_000)).trim()}/api`,
        ),
      );

      for (const [index, api] of [one!, two!].entries()) {
        expect((await request(`${api}/health`)).body?.status).toBe('ok');
        expect(processes[index]!.output()).not.toMatch(
          /database unavailable|did not run|does not hold|cannot read or create/,
        );
      }
      // A URL sealed by one process is opened by the other: they hold the same key.
      const user = await signUpOn(one!, 'two-starts');
      const created = await request(`${one}/connections`, {
        method: 'POST',
        headers: browser(user),
        body: { name: 'main', url: 'redis://127.0.0.1:6379/0' },
      });
      expect(created.status).toBe(201);
      expect((await request(`${two}/c/main/queues`, { headers: browser(user) })).status).toBe(200);

      const db = new Database(path.join(directory, embeddedDatabaseFile), { readonly: true });
      try {
        expect(
          db.prepare('select name, count(*) as times from mikro_orm_migrations group by name order by name').all(),
        ).toEqual(appliedOnce);
        expect(db.prepare('select id from organization where is_local').all()).toHaveLength(1);
      } finally {
        db.close();
      }
    },
    90_000,
  );
});
