import { stat, readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { embeddedAuthSecretFile } from '../../server/secrets/auth-secret.js';
import { bootApp, request } from '../helpers/app.js';
import { sessionCookieOf, signUp } from '../helpers/auth.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startServiceProcess } from '../helpers/process.js';

describe('AUTH_SECRET', () => {
  let database: TestDatabase;
  let dataDir: string;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(tmpdir(), 'bullpen-secret-'));
  });
  afterAll(async () => {
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is required in authenticated server mode: startup fails with one line naming it', async () => {
    const service = startServiceProcess({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: database.url });
    expect(await service.exited).toBe(1);
    expect(service.output().trim()).toMatch(
      /^bullpen: Invalid AUTH_SECRET \(unset\): required when authentication is enabled/,
    );
  });

  it('must be at least 32 characters', () => {
    expect(() => loadConfig({ AUTH_SECRET: 'short' })).toThrow(
      /^Invalid AUTH_SECRET \("<redacted>"\): must be at least 32 characters/,
    );
  });

  it('is not needed in authless server mode', () => {
    expect(() =>
      loadConfig({ DATABASE_URL: database.url, SERVICE_AUTHLESS: 'true', SERVICE_ENCRYPTION_KEY: 'a'.repeat(64) }),
    ).not.toThrow();
  });

  it('is generated once in embedded mode, kept 0600 in the data directory, and reused after a restart', async () => {
    const first = await bootApp({ embeddedDir: dataDir, env: { AUTH_SECRET: undefined } });
    const user = await signUp(first);
    await first.close();
    const file = path.join(dataDir, embeddedAuthSecretFile);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toMatch(/^[0-9a-f]{64}$/);

    const second = await bootApp({ embeddedDir: dataDir, env: { AUTH_SECRET: undefined } });
    try {
      const session = await request(`${second.api}/auth/get-session`, { headers: { cookie: user.cookie } });
      expect(session.body.user.id).toBe(user.userId);
      expect(sessionCookieOf(session.headers)).toBeNull();
    } finally {
      await second.close();
    }
  });
});
