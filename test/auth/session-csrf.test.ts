import { describe, expect, it } from 'vitest';
import { persistenceKinds, request } from '../helpers/app.js';
import { asBrowser, signUp, sql } from '../helpers/auth.js';
import { app, useSessionApp } from './support/session-app.js';

// Cookie-authenticated changes need a same-origin Origin or Referer (split from sessions.test.ts; same describe names).
describe.each(persistenceKinds)('sessions (%s persistence)', (persistence) => {
  useSessionApp(persistence);

  describe('CSRF', () => {
    it('refuses a cookie-authenticated change without a matching Origin or Referer with 403', async () => {
      const user = await signUp(app);
      const create = (headers: Record<string, string>) =>
        request(`${app.api}/organizations`, { method: 'POST', headers, body: { name: 'csrf' } });
      const forged: Record<string, string>[] = [
        { cookie: user.cookie },
        { cookie: user.cookie, origin: 'https://evil.example' },
        { cookie: user.cookie, referer: 'http://localhost:3001/x' },
      ];
      for (const headers of forged) {
        const response = await create(headers);
        expect(response.status).toBe(403);
        expect(response.body.message).toContain('Cross-site request refused');
      }
      // Without APP_BASE_URL the origin is http://localhost:{the port actually bound}.
      expect(app.services.auth.appOrigin).toBe(`http://localhost:${new URL(app.url).port}`);
      expect((await create({ cookie: user.cookie, referer: `${app.services.auth.appOrigin}/some/page` })).status).toBe(
        201,
      );
      expect((await create(asBrowser(app, user))).status).toBe(201);
      const [count] = await sql<{ n: number | string }>(
        app,
        `select count(*) as "n" from "membership" where "user_id" = '${user.userId}'`,
      );
      expect(Number(count!.n)).toBe(3);
    });

    it('does not apply to reads', async () => {
      const user = await signUp(app);
      expect((await request(`${app.api}/organizations`, { headers: { cookie: user.cookie } })).status).toBe(200);
    });
  });
});
