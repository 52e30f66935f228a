import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../server/persistence/migrations/index.js';
import { embeddedDatabaseFile } from '../../server/persistence/orm.js';
import { bootApp, request } from '../helpers/app.js';
import { createTestDatabase, queryDatabase, type TestDatabase } from '../helpers/postgres.js';

interface Row {
  name: string;
}

describe('migrations on PostgreSQL', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('are applied at startup once, and a restart keeps the data', async () => {
    for (let boot = 0; boot < 2; boot++) {
      const app = await bootApp({ persistence: 'server', databaseUrl: database.url });
      expect((await request(`${app.api}/health`)).body.checks.persistence).toEqual({ ok: true, mode: 'server' });
      await app.close();
    }
    const applied = await queryDatabase<Row>(database.url, 'select name from mikro_orm_migrations order by id');
    expect(applied.map((row) => row.name)).toEqual(migrations.map((migration) => migration.name));
    const organizations = await queryDatabase<{ slug: string }>(
      database.url,
      'select slug from organization where is_local',
    );
    expect(organizations).toEqual([{ slug: 'local' }]);
  });
});

describe('migrations on SQLite', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'bullpen-sqlite-'));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('create the database file in the data directory and apply once across restarts', async () => {
    const nested = path.join(directory, 'created', 'on', 'demand');
    for (let boot = 0; boot < 2; boot++) {
      const app = await bootApp({ embeddedDir: nested });
      expect((await request(`${app.api}/app/config`)).status).toBe(200);
      await app.close();
    }
    const db = new Database(path.join(nested, embeddedDatabaseFile), { readonly: true });
    try {
      const applied = db.prepare('select name from mikro_orm_migrations order by id').all() as Row[];
      expect(applied.map((row) => row.name)).toEqual(migrations.map((migration) => migration.name));
      expect(db.prepare('select count(*) as n from organization where is_local').get()).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });
});

describe('PostgreSQL unreachable in server mode', () => {
  it('starts anyway: health says degraded, persistence routes answer 503, the app config still 200', async () => {
    const app = await bootApp({ persistence: 'server', databaseUrl: 'postgres://postgres@127.0.0.1:1/nowhere' });
    try {
      const health = await request(`${app.api}/health`);
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({ status: 'degraded', checks: { persistence: { ok: false, mode: 'server' } } });
      expect((await request(`${app.api}/app/config`)).status).toBe(200);
      const signIn = await request(`${app.api}/auth/sign-in/email`, {
        method: 'POST',
        body: { email: 'a@example.test', password: 'whatever-password' },
      });
      expect(signIn.status).toBe(503);
      expect(signIn.body.code).toBe('DATABASE_UNAVAILABLE');
      expect(signIn.headers.get('retry-after')).toBe('2');
      expect(JSON.stringify(app.logs)).toContain('database unavailable');
    } finally {
      await app.close();
    }
  });
});
