import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { asBrowser, signUp, type SignedInUser } from '../helpers/auth.js';
import { bodyFor, fillPath, isConnectionScoped, permissionedRoutes } from '../helpers/routes.js';

describe('environment connections (SERVICE_ENV_CONNECTIONS=true)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({
      env: {
        SERVICE_AUTHLESS: 'true',
        SERVICE_ENV_CONNECTIONS: 'true',
        SERVICE_REDIS_URL_MAIN: 'redis://:env-secret@127.0.0.1:6379/0',
        SERVICE_REDIS_URL_MAIN_PREFIX: 'bull,jobs',
        SERVICE_REDIS_URL_REPORTING: 'redis://127.0.0.1:6379/1',
        SERVICE_REDIS_URL_REPORTING_ENVIRONMENT: 'staging',
        SERVICE_REDIS_URL_DEFAULT: 'REPORTING',
      },
    });
  });
  afterAll(() => app.close());

  it('lists them with ids from the lowercased names, default first, URLs redacted', async () => {
    const { status, body } = await request(`${app.api}/connections`);
    expect(status).toBe(200);
    expect(
      body.connections.map((c: any) => [c.id, c.name, c.isDefault, c.environment, c.prefixes, c.source, c.url]),
    ).toEqual([
      ['reporting', 'reporting', true, 'staging', ['bull'], 'env', 'redis://127.0.0.1:6379/1'],
      ['main', 'main', false, 'development', ['bull', 'jobs'], 'env', 'redis://:****@127.0.0.1:6379/0'],
    ]);
    expect((await request(`${app.api}/connections/main`)).body).toEqual(body.connections[1]);
    expect(JSON.stringify(app.logs)).not.toContain('env-secret');
  });

  it('answers 403 to create, update and delete, saying the environment manages connections', async () => {
    const attempts = [
      request(`${app.api}/connections`, { method: 'POST', body: { name: 'x', url: 'redis://127.0.0.1:6379' } }),
      request(`${app.api}/connections/main`, { method: 'PATCH', body: { name: 'renamed' } }),
      request(`${app.api}/connections/main`, { method: 'DELETE' }),
      // Even an invalid body gets the 403: the mode is the first thing checked.
      request(`${app.api}/connections`, { method: 'POST', body: { url: 'http://nope' } }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('FORBIDDEN');
      expect(response.body.message).toMatch(/managed by the environment/);
    }
    expect((await request(`${app.api}/connections/main`)).body.name).toBe('main');
  });

  it('tests an environment connection by id', async () => {
    const { body } = await request(`${app.api}/connections/test`, { method: 'POST', body: { id: 'main' } });
    expect(body).toMatchObject({ ok: true, mode: 'standalone', redisVersion: expect.stringMatching(/^\d+\.\d+/) });
  });

  it('reports the mode in /api/app/config and /api/mode', async () => {
    expect((await request(`${app.api}/app/config`)).body.envConnections).toBe(true);
    expect((await request(`${app.api}/mode`)).body.connections).toBe('env');
  });
});

describe('environment connections belong to the instance organization', () => {
  let app: TestApp;
  let member: SignedInUser;
  let outsider: SignedInUser;
  beforeAll(async () => {
    // SERVICE_SIGNUP=open (the test default): the first user owns the instance organization, the next one gets their own.
    app = await bootApp({
      env: { SERVICE_ENV_CONNECTIONS: 'true', SERVICE_REDIS_URL_MAIN: 'redis://127.0.0.1:6379/0' },
    });
    member = await signUp(app, 'instance-owner');
    outsider = await signUp(app, 'outsider');
  });
  afterAll(() => app.close());

  const routes = permissionedRoutes().filter(
    (route) => isConnectionScoped(route) || route.path === '/connections/{id}',
  );

  it('are listed and usable by members of the instance organization only', async () => {
    expect(member.organizationId).toBe(app.services.persistence.localOrganizationId());
    expect(
      (await request(`${app.api}/connections`, { headers: { cookie: member.cookie } })).body.connections.map(
        (c: { id: string }) => c.id,
      ),
    ).toEqual(['main']);
    expect(
      (await request(`${app.api}/connections`, { headers: { cookie: outsider.cookie } })).body.connections,
    ).toEqual([]);
    expect((await request(`${app.api}/c/main/queues`, { headers: { cookie: member.cookie } })).status).toBe(200);
  });

  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: another organization → 403 FORBIDDEN',
    async (_label, route) => {
      const url = `${app.api}${fillPath(route.path, { connectionId: 'main', id: 'main', queueName: 'payments' })}`;
      const response = await request(url, {
        method: route.method,
        headers: asBrowser(app, outsider),
        body: bodyFor(route.method),
      });
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('FORBIDDEN');
    },
  );

  it('refuses another organization the connection test by id, the event stream and the Prometheus scrape of it', async () => {
    const tested = await request(`${app.api}/connections/test`, {
      method: 'POST',
      headers: asBrowser(app, outsider),
      body: { id: 'main' },
    });
    expect(tested.status).toBe(403);
    expect(
      (await request(`${app.api}/c/main/queues/payments/events`, { headers: { cookie: outsider.cookie } })).status,
    ).toBe(403);
    const scrape = await fetch(`${app.api}/prometheus`, { headers: { cookie: outsider.cookie } });
    expect(await scrape.text()).not.toContain('connection="main"');
  });
});
