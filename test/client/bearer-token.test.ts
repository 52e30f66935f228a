import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BullpenError, createBullpenClient } from '../../client/index.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { asBrowser, signUp, type SignedInUser } from '../helpers/auth.js';
import { runBullpen } from '../helpers/cli.js';
import { redisUrl, storeFixture } from '../helpers/stores.js';

/** Authenticated mode: a signed-in owner saves a connection and mints tokens; SDK and CLI use them as bearer. */
describe('API tokens through the SDK and the CLI', () => {
  const store = storeFixture();
  let app: TestApp;
  let owner: SignedInUser;
  let queue: Queue;
  let connectionId: string;
  let viewerToken: string;

  const mint = async (role: string): Promise<string> =>
    (
      await request(`${app.api}/auth/tokens`, {
        method: 'POST',
        headers: asBrowser(app, owner),
        body: { name: role, role },
      })
    ).body.token;

  beforeAll(async () => {
    app = await bootApp();
    owner = await signUp(app, 'owner');
    const saved = await request(`${app.api}/connections`, {
      method: 'POST',
      headers: asBrowser(app, owner),
      body: { name: 'local', url: redisUrl, prefix: store.prefix },
    });
    connectionId = saved.body.id;
    viewerToken = await mint('viewer');
    queue = new Queue('billing', store.bullmq);
    await queue.add('charge', {});
  });

  afterAll(async () => {
    await queue.close();
    await app.close();
    await store.cleanup();
  });

  it('SDK: the token authenticates as its organization and role; without it calls are 401', async () => {
    const client = createBullpenClient({ baseUrl: app.url, token: viewerToken });
    expect(await client.system.session.query()).toMatchObject({
      authenticated: true,
      role: 'viewer',
      activeOrganization: { id: owner.organizationId },
    });
    const list = await client.queues.list.query({ connectionId });
    expect(list.queues.map((entry) => entry.name)).toEqual(['billing']);

    const anonymous = createBullpenClient({ baseUrl: app.url });
    const refused = await anonymous.queues.list.query({ connectionId }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BullpenError);
    expect(refused).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });

  it('CLI: BULLPEN_TOKEN authenticates, --token overrides it, and the role is enforced', async () => {
    const env = { BULLPEN_URL: app.url, BULLPEN_TOKEN: viewerToken };
    const [listed, anonymous, overridden, forbidden] = await Promise.all([
      runBullpen(['queues', '--json'], { env }),
      runBullpen(['queues'], { env: { BULLPEN_URL: app.url } }),
      runBullpen(['queues', '--json', '--token', viewerToken], { env: { ...env, BULLPEN_TOKEN: 'bp_wrong' } }),
      runBullpen(['pause', 'billing'], { env }),
    ]);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout).queues.map((entry: { name: string }) => entry.name)).toEqual(['billing']);
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toMatch(/\(UNAUTHORIZED, HTTP 401\)/);
    expect(overridden.code).toBe(0);
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toMatch(/\(FORBIDDEN, HTTP 403\)/);
    expect(await queue.isPaused()).toBe(false);
  });
});
