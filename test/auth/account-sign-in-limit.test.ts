import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { signUp, testPassword, type SignedInUser } from '../helpers/auth.js';

const limited = {
  NODE_ENV: 'production',
  APP_BASE_URL: 'http://localhost:3000',
  TRUST_PROXY: 'true',
  RATE_LIMIT_MAX: '1000',
  RATE_LIMIT_AUTH_MAX: '1000',
  RATE_LIMIT_ACCOUNT_MAX: '3',
};
let source = 0;
const signInFrom = (app: TestApp, email: string, password: string) => {
  source += 1;
  return request(`${app.api}/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'x-forwarded-for': `10.9.${source % 250}.1` },
    body: { email, password },
  });
};

describe('per-account sign-in limit', () => {
  let app: TestApp;
  let victim: SignedInUser;
  let bystander: SignedInUser;
  beforeAll(async () => {
    app = await bootApp({ env: limited });
    victim = await signUp(app, 'victim');
    bystander = await signUp(app, 'bystander');
  });
  afterAll(() => app.close());

  it('counts failures per account whatever the source address, then answers 429 with Retry-After', async () => {
    for (let attempt = 0; attempt < 3; attempt++)
      expect((await signInFrom(app, victim.email, 'wrong password!')).status).toBe(401);
    const refused = await signInFrom(app, victim.email.toUpperCase(), testPassword);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('leaves other accounts alone', async () => {
    expect((await signInFrom(app, bystander.email, testPassword)).status).toBe(200);
  });
});

describe('per-account sign-in limit across two replicas', () => {
  let one: TestApp;
  let two: TestApp;
  beforeAll(async () => {
    one = await bootApp({
      persistence: 'server',
      env: { ...limited, RATE_LIMIT_REDIS_URL: 'redis://127.0.0.1:6379/0' },
    });
    two = await bootApp({
      persistence: 'server',
      databaseUrl: one.config.persistence.mode === 'server' ? one.config.persistence.databaseUrl : '',
      env: { ...limited, RATE_LIMIT_REDIS_URL: 'redis://127.0.0.1:6379/0' },
    });
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  it('counts in the shared store: failures on either replica add up', async () => {
    const user = await signUp(one, 'shared');
    expect((await signInFrom(one, user.email, 'wrong password!')).status).toBe(401);
    expect((await signInFrom(two, user.email, 'wrong password!')).status).toBe(401);
    expect((await signInFrom(one, user.email, 'wrong password!')).status).toBe(401);
    expect((await signInFrom(two, user.email, testPassword)).status).toBe(429);
  });

  it('does not warn about per-process limits when the store is shared', () => {
    expect(one.logs.join('')).not.toContain('counted per process');
  });
});

describe('server persistence without a shared rate-limit store', () => {
  it('warns at startup that limits are per process', async () => {
    const app = await bootApp({ persistence: 'server', env: limited });
    try {
      expect(app.logs.some((line) => line.includes('RATE_LIMIT_REDIS_URL is not') && line.includes('"level":40'))).toBe(
        true,
      );
    } finally {
      await app.close();
    }
  });
});
