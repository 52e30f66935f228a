import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, persistenceKinds, request, type TestApp } from '../helpers/app.js';

const combinations = [
  {
    name: 'authless, analytics on, production',
    env: { SERVICE_AUTHLESS: 'true', ANALYTICS_KEY: 'phc_test_key', NODE_ENV: 'production' },
  },
  { name: 'authenticated, analytics off, NODE_ENV unset', env: { NODE_ENV: undefined } },
  {
    name: 'authless off explicitly, env connections, test',
    env: { SERVICE_AUTHLESS: 'false', SERVICE_ENV_CONNECTIONS: 'true', NODE_ENV: 'test' },
  },
  {
    name: 'custom analytics UI host, development',
    env: { ANALYTICS_KEY: 'k2', ANALYTICS_UI_HOST: 'https://analytics.example.test', NODE_ENV: 'development' },
  },
];

describe.each(persistenceKinds)('GET /api/app/config (%s persistence)', (persistence) => {
  describe.each(combinations)('$name', ({ env }) => {
    let app: TestApp;
    beforeAll(async () => {
      app = await bootApp({ persistence, env });
    });
    afterAll(() => app.close());

    it('answers 200 with every field of the runtime config', async () => {
      const { status, body } = await request(`${app.api}/app/config`);
      expect(status).toBe(200);
      const vars: Record<string, string | undefined> = env;
      expect(body).toEqual({
        authless: vars.SERVICE_AUTHLESS === 'true',
        envConnections: vars.SERVICE_ENV_CONNECTIONS === 'true',
        persistence,
        stateless: persistence === 'embedded',
        environment: vars.NODE_ENV ?? 'development',
        analytics: {
          enabled: Boolean(vars.ANALYTICS_KEY),
          key: vars.ANALYTICS_KEY ?? null,
          host: '/ingest',
          uiHost: vars.ANALYTICS_UI_HOST ?? 'https://us.posthog.com',
        },
      });
    });

    it('reports the same modes on GET /api/mode', async () => {
      const vars: Record<string, string | undefined> = env;
      const { body } = await request(`${app.api}/mode`);
      expect(body).toEqual({
        auth: vars.SERVICE_AUTHLESS === 'true' ? 'authless' : 'authenticated',
        persistence,
        connections: vars.SERVICE_ENV_CONNECTIONS === 'true' ? 'env' : 'saved',
      });
    });
  });
});
