import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config.js';
import { safeRedirectPath } from '../../../routers/auth/oauth/safe-redirect.js';
import { openAttempt, sealAttempt, type SignInAttempt } from '../../../routers/auth/oauth/state-cookie.js';
import { createSecretHasher } from '../../../server/auth/secret-hash.js';
import { bootApp, request, type TestApp } from '../../helpers/app.js';
import { startServiceProcess } from '../../helpers/process.js';

const base = { NODE_ENV: 'test', SERVICE_EMBEDDED_DIR: '/tmp/unused' };
const configError = (env: Record<string, string>) => {
  try {
    loadConfig({ ...base, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('provider configuration', () => {
  it('enables exactly the providers whose variables are all set', () => {
    const config = loadConfig({
      ...base,
      OIDC_ISSUER_URL: 'https://id.example.test/realm',
      OIDC_CLIENT_ID: 'bullpen',
      OIDC_CLIENT_SECRET: 'shh',
      GITHUB_CLIENT_ID: 'gh',
      GITHUB_CLIENT_SECRET: 'gh-secret',
    });
    expect(config.auth.oauthProviders.map(({ id, name, type, scopes }) => ({ id, name, type, scopes }))).toEqual([
      { id: 'oidc', name: 'Single sign-on', type: 'oidc', scopes: ['openid', 'email', 'profile'] },
      { id: 'github', name: 'GitHub', type: 'oauth2', scopes: ['read:user', 'user:email'] },
    ]);
    expect(loadConfig(base).auth.oauthProviders).toEqual([]);
  });

  it('stops on a half-configured provider, naming the missing variable (and never showing a secret)', () => {
    expect(configError({ OIDC_ISSUER_URL: 'https://id.example.test', OIDC_CLIENT_ID: 'bullpen' })).toBe(
      'Invalid OIDC_CLIENT_SECRET (unset): required when OIDC_ISSUER_URL is set',
    );
    expect(configError({ OIDC_CLIENT_SECRET: 'super-secret-value' })).toBe(
      'Invalid OIDC_ISSUER_URL (unset): required when OIDC_CLIENT_SECRET is set',
    );
    expect(configError({ GITHUB_CLIENT_ID: 'gh' })).toBe(
      'Invalid GITHUB_CLIENT_SECRET (unset): required when GITHUB_CLIENT_ID is set',
    );
    expect(configError({ GOOGLE_CLIENT_SECRET: 'super-secret-value' })).toBe(
      'Invalid GOOGLE_CLIENT_ID (unset): required when GOOGLE_CLIENT_SECRET is set',
    );
    expect(configError({ OIDC_ISSUER_URL: 'not a url', OIDC_CLIENT_ID: 'a', OIDC_CLIENT_SECRET: 'b' })).toMatch(
      /^Invalid OIDC_ISSUER_URL \("<redacted>"\)/,
    );
    expect(
      configError({
        OIDC_ISSUER_URL: 'https://id.example.test',
        OIDC_CLIENT_ID: 'a',
        OIDC_CLIENT_SECRET: 'b',
        OIDC_SCOPES: 'email profile',
      }),
    ).toBe('Invalid OIDC_SCOPES ("email profile"): must include openid');
  });
});

describe('the service process with a half-configured provider', () => {
  it('stops at startup with one line naming the missing variable', async () => {
    const service = startServiceProcess({ GITHUB_CLIENT_ID: 'gh', SERVICE_EMBEDDED_DIR: '/nonexistent/never-created' });
    expect(await service.exited).toBe(1);
    expect(service.output().trim()).toBe(
      'bullpen: Invalid GITHUB_CLIENT_SECRET (unset): required when GITHUB_CLIENT_ID is set',
    );
  });
});

describe('redirect after sign-in', () => {
  const origin = 'https://bullpen.example.test';
  it.each([
    ['/queues?tab=failed#top', '/queues?tab=failed#top'],
    ['/', '/'],
    ['//evil.example/x', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example/', '/'],
    ['javascript:alert(1)', '/'],
    ['/%2F%2Fevil.example', '/'],
    ['/a\tb', '/'],
    [undefined, '/'],
  ])('%s → %s', (value, expected) => {
    expect(safeRedirectPath(value, origin)).toBe(expected);
  });
});

describe('state cookie', () => {
  const hash = createSecretHasher('state-cookie-test-secret-0123456789abcdef');
  const attempt: SignInAttempt = {
    provider: 'oidc',
    state: 's',
    codeVerifier: 'v',
    nonce: 'n',
    redirectTo: '/',
    expiresAt: Date.now() + 60_000,
  };

  it('opens what it sealed, and nothing tampered, forged or expired', () => {
    const sealed = sealAttempt(hash, attempt);
    expect(openAttempt(hash, sealed)).toEqual(attempt);
    const [payload, signature] = sealed.split('.');
    const altered = Buffer.from(JSON.stringify({ ...attempt, redirectTo: '//evil.example' })).toString('base64url');
    expect(openAttempt(hash, `${altered}.${signature}`)).toBeNull();
    expect(openAttempt(createSecretHasher('another-secret-0123456789abcdef0123456789'), sealed)).toBeNull();
    expect(openAttempt(hash, `${payload}`)).toBeNull();
    expect(openAttempt(hash, sealed, attempt.expiresAt + 1)).toBeNull();
    expect(openAttempt(hash, undefined)).toBeNull();
  });
});

describe('authless mode', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({
      env: { SERVICE_AUTHLESS: 'true', GITHUB_CLIENT_ID: 'gh', GITHUB_CLIENT_SECRET: 'gh-secret' },
    });
  });
  afterAll(() => app.close());

  it.each(['/auth/providers', '/auth/sign-in/github', '/auth/callback/github?code=x&state=y'])(
    'answers 400 AUTHLESS_MODE on %s',
    async (path) => {
      const response = await request(`${app.api}${path}`);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('AUTHLESS_MODE');
    },
  );
});

describe('sign-in rate limit', () => {
  it('counts provider sign-ins against RATE_LIMIT_AUTH_MAX per client IP', async () => {
    const app = await bootApp({
      env: {
        GITHUB_CLIENT_ID: 'gh',
        GITHUB_CLIENT_SECRET: 'gh-secret',
        RATE_LIMIT_ENABLED: 'true',
        RATE_LIMIT_AUTH_MAX: '2',
      },
    });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i += 1)
        statuses.push((await fetch(`${app.api}/auth/sign-in/github`, { redirect: 'manual' })).status);
      expect(statuses).toEqual([302, 302, 429]);
      expect((await request(`${app.api}/auth/callback/github?code=x&state=y`)).body.code).toBe('RATE_LIMITED');
    } finally {
      await app.close();
    }
  });
});
