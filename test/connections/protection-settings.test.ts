import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { parseEnvConnections } from '../../server/stores/env-connections.js';
import { bootApp, persistenceKinds, request, type TestApp } from '../helpers/app.js';
import { asBrowser, bearer, signUp } from '../helpers/auth.js';
import { redisUrl } from '../helpers/stores.js';

describe('protection of environment connections (SERVICE_REDIS_URL_<NAME>_PROTECTION)', () => {
  it('reads each value, case-insensitively, and defaults to none', () => {
    const connections = parseEnvConnections({
      SERVICE_REDIS_URL_A: redisUrl,
      SERVICE_REDIS_URL_A_PROTECTION: 'Read-Only',
      SERVICE_REDIS_URL_B: redisUrl,
      SERVICE_REDIS_URL_B_PROTECTION: 'confirm',
      SERVICE_REDIS_URL_C: redisUrl,
    });
    expect(connections.map((connection) => [connection.id, connection.protection])).toEqual([
      ['a', 'read-only'],
      ['b', 'confirm'],
      ['c', 'none'],
    ]);
  });

  it('stops startup on an unknown value, naming the variable', () => {
    const env = {
      SERVICE_AUTHLESS: 'true',
      SERVICE_ENV_CONNECTIONS: 'true',
      SERVICE_REDIS_URL_PROD: redisUrl,
      SERVICE_REDIS_URL_PROD_PROTECTION: 'locked',
    };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(
      /SERVICE_REDIS_URL_PROD_PROTECTION \("locked"\): must be one of none, confirm, admin, read-only/,
    );
  });
});

describe.each(persistenceKinds)('protection of saved connections (%s persistence)', (persistence) => {
  let app: TestApp;
  let owner: Record<string, string>;
  let operator: Record<string, string>;
  beforeAll(async () => {
    app = await bootApp({ persistence });
    const user = await signUp(app, 'owner');
    owner = asBrowser(app, user);
    const token = await request(`${app.api}/auth/tokens`, {
      method: 'POST',
      headers: owner,
      body: { name: 'operator', role: 'operator' },
    });
    operator = bearer(token.body.token);
  });
  afterAll(() => app?.close());

  it('is set on create, shown in the list and the detail, and kept', async () => {
    const created = await request(`${app.api}/connections`, {
      method: 'POST',
      headers: owner,
      body: { name: 'prod', url: redisUrl, protection: 'read-only' },
    });
    expect(created.status).toBe(201);
    expect(created.body.protection).toBe('read-only');
    const plain = await request(`${app.api}/connections`, {
      method: 'POST',
      headers: owner,
      body: { name: 'dev', url: redisUrl },
    });
    expect(plain.body.protection).toBe('none');
    const listed = (await request(`${app.api}/connections`, { headers: owner })).body.connections;
    expect(listed.map((connection: any) => [connection.name, connection.protection])).toEqual([
      ['prod', 'read-only'],
      ['dev', 'none'],
    ]);
    expect((await request(`${app.api}/connections/${created.body.id}`, { headers: owner })).body.protection).toBe(
      'read-only',
    );
  });

  it('refuses a value it does not know, naming the field', async () => {
    const response = await request(`${app.api}/connections`, {
      method: 'POST',
      headers: owner,
      body: { name: 'odd', url: redisUrl, protection: 'locked' },
    });
    expect(response.status).toBe(400);
    expect(response.body.issues[0].path).toEqual(['protection']);
  });

  it('is changed only by an admin (PATCH), and the change is audited', async () => {
    const { id } = (
      await request(`${app.api}/connections`, {
        method: 'POST',
        headers: owner,
        body: { name: 'staging', url: redisUrl },
      })
    ).body;
    const refused = await request(`${app.api}/connections/${id}`, {
      method: 'PATCH',
      headers: operator,
      body: { protection: 'none' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'FORBIDDEN', permission: 'connections.write' });
    const changed = await request(`${app.api}/connections/${id}`, {
      method: 'PATCH',
      headers: owner,
      body: { protection: 'confirm' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.protection).toBe('confirm');
    expect((await request(`${app.api}/connections/${id}`, { headers: owner })).body.protection).toBe('confirm');
    // A change of another field keeps it.
    await request(`${app.api}/connections/${id}`, {
      method: 'PATCH',
      headers: owner,
      body: { environment: 'staging' },
    });
    expect((await request(`${app.api}/connections/${id}`, { headers: owner })).body.protection).toBe('confirm');
    const audit = (await request(`${app.api}/audit?connectionId=${id}&action=connections.write`, { headers: owner }))
      .body.events;
    const outcomes = audit.map((event: any) => [
      event.outcome,
      (event.parameters as { protection?: string }).protection ?? null,
    ]);
    expect(outcomes).toEqual(
      expect.arrayContaining([
        ['denied', 'none'],
        ['success', 'confirm'],
      ]),
    );
  });
});
