import { stat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootApp } from '../helpers/app.js';
import { sql, uniqueEmail } from '../helpers/auth.js';
import { signUpWith } from './support/sign-up-attempt.js';

describe('the setup token on a non-loopback listener', () => {
  it('embedded: printed at first start, kept 0600 in the data directory; the first sign-up needs it, then it is gone', async () => {
    const app = await bootApp({ env: { HOST: '0.0.0.0' } });
    try {
      const directory = (app.config.persistence as { directory: string }).directory;
      const file = path.join(directory, 'setup-token');
      const token = (await readFile(file, 'utf8')).trim();
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(app.logs.join('')).toContain(token);
      const without = await signUpWith(app, uniqueEmail('stranger'));
      expect(without.response.status).toBe(403);
      expect(without.response.body.code).toBe('SETUP_TOKEN_REQUIRED');
      expect((await signUpWith(app, uniqueEmail('guess'), { setupToken: 'not-the-token' })).response.status).toBe(403);
      const owner = await signUpWith(app, uniqueEmail('owner'), { setupToken: token });
      expect(owner.response.status).toBe(200);
      expect(owner.user.organizationId).toBe(app.services.persistence.localOrganizationId());
      // Claimed: the token opens nothing any more (SERVICE_SIGNUP=open in tests → a personal organization).
      const next = await signUpWith(app, uniqueEmail('next'), { setupToken: token });
      expect(next.user.organizationId).not.toBe(app.services.persistence.localOrganizationId());
    } finally {
      await app.close();
    }
  });

  it('server mode: only its hash is stored', async () => {
    const app = await bootApp({ persistence: 'server', env: { HOST: '0.0.0.0' } });
    try {
      const token = /setup token: (\S+)/.exec(app.logs.join(''))![1]!;
      const rows = await sql<{ value: string }>(
        app,
        `select "value" from "instance_setting" where "key" = 'setup-token-hash'`,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.value).not.toContain(token);
      expect((await signUpWith(app, uniqueEmail('stranger'))).response.body.code).toBe('SETUP_TOKEN_REQUIRED');
      expect((await signUpWith(app, uniqueEmail('owner'), { setupToken: token })).response.status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('is not asked for on a loopback listener', async () => {
    const app = await bootApp({ env: { HOST: '127.0.0.1', SERVICE_SIGNUP: undefined } });
    try {
      expect(app.logs.join('')).not.toContain('setup token');
      expect((await signUpWith(app, uniqueEmail('owner'))).response.status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
