import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthTestEndpoints } from '../../../server/auth/oauth/create-providers.js';

export const standInClient = { id: 'stand-in-client', secret: 'stand-in-secret-0123456789abcdef' };

interface PendingCode {
  provider: 'github' | 'google';
  challenge: string;
  redirectUri: string;
  nonce: string | null;
  used: boolean;
}

export interface StandInAccounts {
  github: {
    user: { id: number; login: string; name: string | null };
    emails: Array<{ email: string; primary: boolean; verified: boolean }>;
  };
  google: { sub: string; email: string; email_verified: boolean; name: string };
  /** Ways the Google stand-in can lie in its ID token. */
  googleIdToken: { aud?: string; iss?: string; signWithOtherKey?: boolean };
}

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

function signJwt(payload: Record<string, unknown>, key: KeyObject, kid: string): string {
  const signingInput = `${base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }))}.${base64url(JSON.stringify(payload))}`;
  return `${signingInput}.${base64url(sign('RSA-SHA256', Buffer.from(signingInput), key))}`;
}

async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * Loopback stand-ins for GitHub's and Google's authorize, token, user and
 * key endpoints: the only mocks of the sign-in tests. The authorize endpoint
 * approves at once (the person at the provider said yes); the token endpoint
 * checks the client secret, the redirect URI, single use and PKCE S256.
 */
export async function startProviderStandIns() {
  const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const otherKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'stand-in-key';
  const codes = new Map<string, PendingCode>();
  const tokens = new Map<string, 'github'>();
  const accounts: StandInAccounts = {
    github: {
      user: { id: 4242, login: 'octo', name: 'Octo Cat' },
      emails: [{ email: 'octo@example.test', primary: true, verified: true }],
    },
    google: { sub: '1099', email: 'gina@example.test', email_verified: true, name: 'Gina' },
    googleIdToken: {},
  };

  function authorize(provider: 'github' | 'google', url: URL, res: ServerResponse): void {
    const code = `${provider}-code-${randomBytes(6).toString('hex')}`;
    const redirectUri = url.searchParams.get('redirect_uri')!;
    codes.set(code, {
      provider,
      challenge: url.searchParams.get('code_challenge') ?? '',
      redirectUri,
      nonce: url.searchParams.get('nonce'),
      used: false,
    });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('state', url.searchParams.get('state') ?? '');
    res.writeHead(302, { location: back.href }).end();
  }

  async function token(provider: 'github' | 'google', req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await formOf(req);
    const pending = codes.get(form.get('code') ?? '');
    const verifier = form.get('code_verifier') ?? '';
    const pkceOk = pending && createHash('sha256').update(verifier).digest('base64url') === pending.challenge;
    const clientOk = form.get('client_id') === standInClient.id && form.get('client_secret') === standInClient.secret;
    if (!clientOk) return json(res, 401, { error: 'invalid_client' });
    if (
      !pending ||
      pending.used ||
      pending.provider !== provider ||
      !pkceOk ||
      form.get('redirect_uri') !== pending.redirectUri
    ) {
      // As the real ones do: GitHub answers a bad code with 200 and an error body, Google with 400.
      if (provider === 'github')
        return json(res, 200, {
          error: 'bad_verification_code',
          error_description: 'The code passed is incorrect or expired.',
        });
      return json(res, 400, { error: 'invalid_grant' });
    }
    pending.used = true;
    const accessToken = `${provider}-token-${randomBytes(8).toString('hex')}`;
    if (provider === 'github') {
      tokens.set(accessToken, 'github');
      return json(res, 200, { access_token: accessToken, token_type: 'bearer', scope: 'read:user,user:email' });
    }
    const now = Math.floor(Date.now() / 1000);
    const lie = accounts.googleIdToken;
    const idToken = signJwt(
      {
        iss: lie.iss ?? 'https://accounts.google.com',
        aud: lie.aud ?? standInClient.id,
        iat: now,
        exp: now + 300,
        nonce: pending.nonce,
        ...accounts.google,
      },
      lie.signWithOtherKey ? otherKeys.privateKey : keys.privateKey,
      kid,
    );
    json(res, 200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: 300,
      id_token: idToken,
      scope: 'openid email profile',
    });
  }

  function gitHubApi(url: URL, req: IncomingMessage, res: ServerResponse): void {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !tokens.has(bearer)) return json(res, 401, { message: 'Bad credentials' });
    if (url.pathname === '/github/api/user') return json(res, 200, accounts.github.user);
    if (url.pathname === '/github/api/user/emails') return json(res, 200, accounts.github.emails);
    json(res, 404, { message: 'Not Found' });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://stand-in');
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /github/authorize') return authorize('github', url, res);
    if (route === 'GET /google/authorize') return authorize('google', url, res);
    if (route === 'POST /github/token') return void token('github', req, res);
    if (route === 'POST /google/token') return void token('google', req, res);
    if (route === 'GET /google/jwks')
      return json(res, 200, { keys: [{ ...keys.publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] });
    if (url.pathname.startsWith('/github/api/')) return gitHubApi(url, req, res);
    json(res, 404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const endpoints: OAuthTestEndpoints = {
    allowInsecureRequests: true,
    github: {
      authorizationEndpoint: `${origin}/github/authorize`,
      tokenEndpoint: `${origin}/github/token`,
      apiBaseUrl: `${origin}/github/api`,
    },
    google: {
      authorization_endpoint: `${origin}/google/authorize`,
      token_endpoint: `${origin}/google/token`,
      jwks_uri: `${origin}/google/jwks`,
    },
  };
  return {
    origin,
    endpoints,
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
