import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { readConnectionRows, testEncryptionKey } from '../helpers/connections.js';

describe('saved connections and odd input (server persistence)', () => {
  let app: TestApp;
  let id: string;

  beforeAll(async () => {
    app = await bootApp({
      persistence: 'server',
      env: { SERVICE_AUTHLESS: 'true', SERVICE_ENCRYPTION_KEY: testEncryptionKey },
    });
    id = (
      await request(`${app.api}/connections`, {
        method: 'POST',
        body: { name: 'main', url: 'redis://127.0.0.1:6379/0' },
      })
    ).body.id;
  });
  afterAll(async () => {
    await app.close();
  });

  it.each(['/connections/%00', '/connections/a%00b', '/c/%00/workers'])(
    'answers an id with a NUL byte (GET %s) with 404, not a database error',
    async (path) => {
      const { status, body } = await request(`${app.api}${path}`);
      expect(status).toBe(404);
      expect(body.code).toBe('NOT_FOUND');
    },
  );

  it('answers PATCH and DELETE of such an id with 404 too', async () => {
    expect((await request(`${app.api}/connections/%00`, { method: 'PATCH', body: { name: 'x' } })).status).toBe(404);
    expect((await request(`${app.api}/connections/%00`, { method: 'DELETE' })).status).toBe(404);
  });

  it.each([
    ['isDefault', 'false'],
    ['cluster', 'yes'],
    ['cluster', 1],
    ['tls', { enabled: 'false' }],
  ])('refuses %s = %j: a JSON boolean is required (the adapter would coerce "false" to true)', async (field, value) => {
    const before = await readConnectionRows(app);
    const { status, body } = await request(`${app.api}/connections/${id}`, {
      method: 'PATCH',
      body: { [field]: value },
    });
    expect(status).toBe(400);
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(await readConnectionRows(app)).toEqual(before);
  });
});
