import { describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { asBrowser, bearer, sessionCookieOf, signUp, testPassword, uniqueEmail } from '../helpers/auth.js';

/**
 * The sign-in limit (RATE_LIMIT_AUTH_MAX per window) counts per client
 * address, never per credential the caller chooses to send along: an
 * attacker holding a few tokens (or sessions) must not get a fresh budget
 * with each. The per-account limit is set out of reach to see this one alone.
 */
const env = {
  NODE_ENV: 'production',
  APP_BASE_URL: 'http://localhost:3000',
  RATE_LIMIT_MAX: '1000',
  RATE_LIMIT_AUTH_MAX: '10',
  RATE_LIMIT_ACCOUNT_MAX: '1000',
};

describe('the sign-in limit is keyed by client address', () => {
  const wrongSignIns = async (target: TestApp, count: number, headersOf: (index: number) => Record<string, string>) => {
    const victim = uniqueEmail('victim');
    const statuses: number[] = [];
    for (let index = 0; index < count; index += 1) {
      const answer = await request(`${target.api}/auth/sign-in/email`, {
        method: 'POST',
        headers: headersOf(index),
        body: { email: victim, password: 'not the password' },
      });
      statuses.push(answer.status);
    }
    return statuses;
  };

  it('12 wrong-password sign-ins, each sent with one of 4 valid API tokens, run out of the budget of 10', async () => {
    const limited = await bootApp({ env, persistence: 'embedded' });
    try {
      const owner = await signUp(limited, 'holder');
      const held: string[] = [];
      for (let index = 0; index < 4; index += 1) {
        held.push(
          (
            await request(`${limited.api}/auth/tokens`, {
              method: 'POST',
              headers: asBrowser(limited, owner),
              body: { name: `t${index}` },
            })
          ).body.token,
        );
      }
      // The sign-up above spent one of the address's 10.
      const statuses = await wrongSignIns(limited, 12, (index) => bearer(held[index % held.length]!));
      expect(statuses.slice(0, 9)).toEqual(Array(9).fill(401));
      expect(statuses.slice(9)).toEqual([429, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('the same with session cookies of another user', async () => {
    const limited = await bootApp({ env, persistence: 'embedded' });
    try {
      const owner = await signUp(limited, 'holder');
      const sessions: string[] = [];
      for (let index = 0; index < 4; index += 1) {
        const signedIn = await request(`${limited.api}/auth/sign-in/email`, {
          method: 'POST',
          body: { email: owner.email, password: testPassword },
        });
        sessions.push(sessionCookieOf(signedIn.headers)!);
      }
      // Sign-up and four sign-ins spent 5 of the address's 10.
      const statuses = await wrongSignIns(limited, 8, (index) => ({
        cookie: sessions[index % sessions.length]!,
        origin: limited.services.auth.appOrigin,
      }));
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    } finally {
      await limited.close();
    }
  });
});
