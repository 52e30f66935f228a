import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { asBrowser, signUp } from '../helpers/auth.js';
import { runBullpen } from '../helpers/cli.js';

describe('bullpen invite', () => {
  let app: TestApp;
  let token: string;
  beforeAll(async () => {
    app = await bootApp({ env: { SERVICE_SIGNUP: undefined } });
    const owner = await signUp(app, 'owner');
    token = (
      await request(`${app.api}/auth/tokens`, {
        method: 'POST',
        headers: asBrowser(app, owner),
        body: { name: 'cli', role: 'admin' },
      })
    ).body.token;
  });
  afterAll(() => app.close());

  it('prints the invitation URL, which previews the invitation with the role asked for', async () => {
    const run = await runBullpen(['invite', 'Newcomer@Example.test', '--role', 'operator'], {
      env: { BULLPEN_URL: app.url, BULLPEN_TOKEN: token },
    });
    expect(run.stderr).toContain('invited newcomer@example.test as operator');
    expect(run.code).toBe(0);
    const url = run.stdout.trim();
    expect(url).toMatch(new RegExp(`^${app.services.auth.appOrigin}/api/invitations/bpi_`));
    const preview = await request(url.replace(app.services.auth.appOrigin, app.url));
    expect(preview.body).toMatchObject({
      role: 'operator',
      email: 'newcomer@example.test',
      organization: { name: 'Local' },
    });
  });

  it('refuses a role it does not know, as bad usage', async () => {
    const run = await runBullpen(['invite', 'x@example.test', '--role', 'god'], {
      env: { BULLPEN_URL: app.url, BULLPEN_TOKEN: token },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--role must be one of');
  });
});
