import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textDepthExceeds, valueDepthExceeds } from '../../server/http/json-depth.js';
import { Connection } from '../../server/persistence/entities/connection.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { testEncryptionKey } from '../helpers/connections.js';

const nested = (levels: number) => `${'['.repeat(levels - 1)}{"k":1}${']'.repeat(levels - 1)}`;
const deepBody = (field: string, extra: string) => `{${extra}"${field}":${nested(10_000)}}`;

describe('JSON depth checks', () => {
  it('counts brackets outside strings only, and stops past the limit', () => {
    expect(textDepthExceeds(nested(64))).toBe(false);
    expect(textDepthExceeds(nested(65))).toBe(true);
    expect(textDepthExceeds(`{"a":"${'['.repeat(500)}"}`)).toBe(false);
    expect(textDepthExceeds(`{"a":"\\"${'['.repeat(500)}"}`)).toBe(false);
    expect(valueDepthExceeds(JSON.parse(nested(64)))).toBe(false);
    expect(valueDepthExceeds(JSON.parse(nested(10_000)))).toBe(true);
  });
});

describe('input that cannot be handled is a 400 before it reaches a library', () => {
  let app: TestApp;
  let connectionId: string;
  beforeAll(async () => {
    app = await bootApp({ env: { SERVICE_AUTHLESS: 'true', SERVICE_ENCRYPTION_KEY: testEncryptionKey } });
    connectionId = (
      await request(`${app.api}/connections`, {
        method: 'POST',
        body: { name: 'main', url: 'redis://127.0.0.1:6379/0' },
      })
    ).body.id;
  });
  afterAll(() => app.close());

  it.each([
    [
      'REST add job',
      () => `/c/${connectionId}/queues/deep-${randomUUID()}/jobs`,
      () => deepBody('data', '"name":"n",'),
    ],
    [
      'REST connection create',
      () => '/connections',
      () => deepBody('tls', '"name":"deep","url":"redis://127.0.0.1:6379/0",'),
    ],
    [
      'tRPC jobs.add',
      () => '/trpc/jobs.add',
      () => deepBody('data', `"connectionId":"${connectionId}","queueName":"deep","name":"n",`),
    ],
  ])('%s: 10,000 levels → 400 BODY_TOO_DEEP', async (_label, path, body) => {
    const response = await request(`${app.api}${path()}`, { method: 'POST', rawBody: body() });
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain('BODY_TOO_DEEP');
  });

  it('tRPC query input nested too deep → 400 BODY_TOO_DEEP', async () => {
    const response = await request(`${app.api}/trpc/connections.list?input=${encodeURIComponent(nested(2000))}`);
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toContain('BODY_TOO_DEEP');
  });

  it('refuses a URL with a malformed percent escape as 400 INVALID_URL, on create, update and test', async () => {
    const url = 'redis://:Hunter2Secret%PW@127.0.0.1:6379/0';
    const created = await request(`${app.api}/connections`, { method: 'POST', body: { name: 'bad', url } });
    expect(created.status).toBe(400);
    expect(created.body.code).toBe('INVALID_URL');
    expect(JSON.stringify(created.body)).not.toContain('Hunter2Secret');
    expect(
      (await request(`${app.api}/connections/${connectionId}`, { method: 'PATCH', body: { url } })).body.code,
    ).toBe('INVALID_URL');
    expect((await request(`${app.api}/connections/test`, { method: 'POST', body: { url } })).body.code).toBe(
      'INVALID_URL',
    );
  });

  it('answers a saved URL the client cannot parse with 400 INVALID_URL, never 500', async () => {
    const id = randomUUID();
    const em = app.services.persistence.fork();
    const now = new Date();
    em.create(Connection, {
      id,
      organization: app.services.persistence.localOrganizationId(),
      name: 'saved-before-the-check',
      urlSealed: app.services.urlCipher.encrypt('redis://:Hunter2Secret%PW@127.0.0.1:6379/0', id),
      environment: 'development',
      prefixes: ['bull'],
      createdAt: now,
      updatedAt: now,
    });
    await em.flush();
    for (const answer of [
      await request(`${app.api}/c/${id}/queues`),
      await request(`${app.api}/connections/test`, { method: 'POST', body: { id } }),
    ]) {
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('INVALID_URL');
    }
    expect(
      (await request(`${app.api}/connections/${id}`, { method: 'PATCH', body: { url: 'redis://127.0.0.1:6379/0' } }))
        .status,
    ).toBe(200);
    expect((await request(`${app.api}/c/${id}/queues`)).status).toBe(200);
  });
});
