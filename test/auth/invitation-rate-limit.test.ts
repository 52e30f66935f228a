import { describe, expect, it } from 'vitest';
import { bootApp, request } from '../helpers/app.js';

describe('invitation routes are rate limited like sign-in', () => {
  it('answers 429 past RATE_LIMIT_AUTH_MAX, per client', async () => {
    const app = await bootApp({
      env: { NODE_ENV: 'production', APP_BASE_URL: 'https://bullpen.example.test', RATE_LIMIT_AUTH_MAX: '2' },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await request(`${app.api}/invitations/bpi_guess${i}`)).status);
      expect(statuses).toEqual([404, 404, 429]);
    } finally {
      await app.close();
    }
  });
});
