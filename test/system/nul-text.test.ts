import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { readConnectionRows, testEncryptionKey } from '../helpers/connections.js';

describe('a NUL character in text bound for PostgreSQL', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await bootApp({
      persistence: 'server',
      env: { SERVICE_AUTHLESS: 'true', SERVICE_ENCRYPTION_KEY: testEncryptionKey },
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('is a 400 in a connection name, and nothing is saved', async () => {
    const { status, body } = await request(`${app.api}/connections`, {
      method: 'POST',
      body: { name: 'a\u0000b', url: 'redis://127.0.0.1:6379/0' },
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('NUL') });
    expect(await readConnectionRows(app)).toEqual([]);
  });

  it.each(['connectionId', 'action'])('is a 400 in the audit filter %s', async (filter) => {
    const { status, body } = await request(`${app.api}/audit?${filter}=%00`);
    expect(status).toBe(400);
    expect(body.code).toBe('VALIDATION_FAILED');
  });
});
