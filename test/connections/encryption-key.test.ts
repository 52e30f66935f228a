import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { embeddedKeyFile } from '../../server/secrets/encryption-key.js';
import { aesGcmUrlCipher } from '../../server/secrets/url-cipher.js';
import { bootApp, request } from '../helpers/app.js';
import { testEncryptionKey } from '../helpers/connections.js';
import { createTestDatabase, queryDatabase } from '../helpers/postgres.js';
import { startServiceProcess } from '../helpers/process.js';

const authless = { SERVICE_AUTHLESS: 'true' };
const body = { name: 'main', url: 'redis://:hunter2@127.0.0.1:6379/1' };

describe('SERVICE_ENCRYPTION_KEY', () => {
  it('accepts 32 bytes as hex or base64 and rejects anything else without echoing it', () => {
    const bytes = randomBytes(32);
    expect(loadConfig({ SERVICE_ENCRYPTION_KEY: bytes.toString('hex') }).encryptionKey).toEqual(bytes);
    expect(loadConfig({ SERVICE_ENCRYPTION_KEY: bytes.toString('base64') }).encryptionKey).toEqual(bytes);
    expect(loadConfig({}).encryptionKey).toBeNull();
    for (const bad of ['abc', randomBytes(16).toString('hex'), randomBytes(31).toString('base64')]) {
      const attempt = () => loadConfig({ SERVICE_ENCRYPTION_KEY: bad });
      expect(attempt).toThrow(ConfigError);
      expect(attempt).toThrow(/^Invalid SERVICE_ENCRYPTION_KEY \("<redacted>"\): must be 32 bytes/);
    }
  });

  it('seals URLs so that tampering, another record id or another key cannot open them', () => {
    const cipher = aesGcmUrlCipher(Buffer.from(testEncryptionKey, 'hex'));
    const sealed = cipher.encrypt('redis://:pw@host:6379', 'id-1');
    expect(cipher.decrypt(sealed, 'id-1')).toBe('redis://:pw@host:6379');
    expect(cipher.encrypt('redis://:pw@host:6379', 'id-1')).not.toBe(sealed);
    const [version, iv, tag, data] = sealed.split('.');
    const flipped = Buffer.from(data!, 'base64');
    flipped[0]! ^= 1;
    expect(() => cipher.decrypt([version, iv, tag, flipped.toString('base64')].join('.'), 'id-1')).toThrow(
      /cannot be decrypted/,
    );
    expect(() => cipher.decrypt(sealed, 'id-2')).toThrow(/cannot be decrypted/);
    expect(() => aesGcmUrlCipher(randomBytes(32)).decrypt(sealed, 'id-1')).toThrow(/cannot be decrypted/);
  });
});

describe('embedded mode without a key', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'bullpen-key-'));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('generates a key once, 0600 in the data directory, and reads connections back after a restart', async () => {
    const first = await bootApp({ embeddedDir: directory, env: authless });
    const created = await request(`${first.api}/connections`, { method: 'POST', body });
    expect(created.status).toBe(201);
    await first.close();
    const keyFile = await stat(path.join(directory, embeddedKeyFile));
    expect(keyFile.mode & 0o777).toBe(0o600);

    const second = await bootApp({ embeddedDir: directory, env: authless });
    try {
      expect((await stat(path.join(directory, embeddedKeyFile))).mtimeMs).toBe(keyFile.mtimeMs);
      expect((await request(`${second.api}/connections/${created.body.id}`)).body).toEqual(created.body);
      expect((await second.services.connections.find(created.body.id))!.url).toBe(body.url);
    } finally {
      await second.close();
    }
  });

  it('says so clearly when the key no longer matches (SERVICE_ENCRYPTION_KEY set later to another key)', async () => {
    const app = await bootApp({
      embeddedDir: directory,
      env: { ...authless, SERVICE_ENCRYPTION_KEY: randomBytes(32).toString('hex') },
    });
    try {
      const response = await request(`${app.api}/connections`);
      expect(response.status).toBe(500);
      expect(response.body).toMatchObject({
        code: 'ENCRYPTION_KEY_MISMATCH',
        message: expect.stringContaining('SERVICE_ENCRYPTION_KEY'),
      });
    } finally {
      await app.close();
    }
  });
});

describe('server mode', () => {
  it('refuses to start without SERVICE_ENCRYPTION_KEY, in one line naming it', async () => {
    const service = startServiceProcess({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/never_opened',
      AUTH_SECRET: 'x'.repeat(32),
    });
    expect(await service.exited).toBe(1);
    expect(service.output().trim()).toMatch(
      /^bullpen: Invalid SERVICE_ENCRYPTION_KEY \(unset\): required with server persistence/,
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db/x', SERVICE_AUTHLESS: 'true' })).toThrow(ConfigError);
  });

  it('rotates keys: SERVICE_ENCRYPTION_KEY_PREVIOUS opens old rows, which are re-sealed with the new key at startup (count logged)', async () => {
    const database = await createTestDatabase();
    const [oldKey, newKey] = [randomBytes(32).toString('hex'), randomBytes(32).toString('hex')];
    const boot = (env: Record<string, string>) =>
      bootApp({ persistence: 'server', databaseUrl: database.url, env: { ...authless, ...env } });
    try {
      const first = await boot({ SERVICE_ENCRYPTION_KEY: oldKey });
      const created = await request(`${first.api}/connections`, { method: 'POST', body });
      expect(created.status).toBe(201);
      await request(`${first.api}/connections`, {
        method: 'POST',
        body: { name: 'second', url: 'redis://127.0.0.1:6379/2' },
      });
      const sealedBefore = await queryDatabase<{ url_sealed: string }>(
        database.url,
        'select url_sealed from connection order by name',
      );
      await first.close();

      const rotated = await boot({ SERVICE_ENCRYPTION_KEY: newKey, SERVICE_ENCRYPTION_KEY_PREVIOUS: oldKey });
      expect(rotated.logs.join('')).toContain('re-sealed 2 secret(s)');
      expect((await rotated.services.connections.find(created.body.id))!.url).toBe(body.url);
      const sealedAfter = await queryDatabase<{ id: string; url_sealed: string }>(
        database.url,
        'select id, url_sealed from connection order by name',
      );
      expect(sealedAfter.map((row) => row.url_sealed)).not.toContain(sealedBefore[0]!.url_sealed);
      const row = sealedAfter.find((item) => item.id === created.body.id)!;
      expect(aesGcmUrlCipher(Buffer.from(newKey, 'hex')).decrypt(row.url_sealed, row.id)).toBe(body.url);
      await rotated.close();

      // The previous key can go now: the new one alone opens every row.
      const after = await boot({ SERVICE_ENCRYPTION_KEY: newKey });
      expect((await request(`${after.api}/connections/${created.body.id}`)).status).toBe(200);
      await after.close();
    } finally {
      await database.drop();
    }
  });
});
