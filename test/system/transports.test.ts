import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaller } from '../../routers/_app.js';
import { createInnerContext } from '../../server/trpc/context.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';

describe('one procedure, three ways in', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({ env: { SERVICE_AUTHLESS: 'true', ANALYTICS_KEY: 'key-1' } });
  });
  afterAll(() => app.close());

  it('returns the same runtime config over REST, tRPC and an in-process caller', async () => {
    const rest = (await request(`${app.api}/app/config`)).body;
    const trpc = await app.trpc.system.appConfig.query();
    const inProcess = await createCaller(createInnerContext(app.services)).system.appConfig();
    expect(trpc).toEqual(rest);
    expect(inProcess).toEqual(rest);
    expect(rest.analytics.key).toBe('key-1');
  });

  it('returns the same authless session snapshot over REST and tRPC', async () => {
    const rest = (await request(`${app.api}/session`)).body;
    const trpc = await app.trpc.system.session.query();
    expect(trpc).toEqual(rest);
    expect(rest).toMatchObject({ authenticated: true, authless: true, role: 'owner' });
    expect(rest.activeOrganization.id).toBe(rest.memberships[0].organizationId);
  });
});
