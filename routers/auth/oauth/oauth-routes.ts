import type { Request, Response } from 'express';
import type { OAuthProviders } from '../../../server/auth/oauth/create-providers.js';
import { OAuthFailure, type OAuthProvider } from '../../../server/auth/oauth/oauth-provider.js';
import { safeRedirectPath } from '../../../server/auth/oauth/safe-redirect.js';
import { readStateCookie, stateCookie } from '../../../server/auth/oauth/state-cookie.js';
import { sendError } from '../../../server/http/error-body.js';
import { withinRateLimit } from '../../../server/rate-limit/limit-request.js';
import type { Services } from '../../../server/services.js';
import { auditFailedSignIn, auditSignIn } from './audit-sign-in.js';
import { beginSignIn } from './begin-sign-in.js';
import { finishSignIn } from './finish-sign-in.js';

export const oauthSignInPath = '/auth/sign-in/:provider';
export const oauthCallbackPath = '/auth/callback/:provider';

/**
 * The checks both routes share: 400 in authless mode, 404 for a provider
 * that is not configured, the sign-in rate limit. Null when answered.
 */
async function providerFor(services: Services, providers: OAuthProviders, req: Request, res: Response): Promise<OAuthProvider | null> {
  if (services.config.authless) {
    sendError(res, 'AUTHLESS_MODE', 'Authentication is disabled: the service runs in authless mode (SERVICE_AUTHLESS=true)');
    return null;
  }
  const provider = providers.get(String(req.params.provider));
  if (!provider) {
    sendError(res, 'NOT_FOUND', `No identity provider "${String(req.params.provider)}" is configured`);
    return null;
  }
  return (await withinRateLimit(services, req, res, 'credentials')) ? provider : null;
}

/** Lands the browser on the app with a code it can show; the details stay in the log. */
async function failSignIn(services: Services, req: Request, res: Response, provider: string, error: unknown): Promise<void> {
  const failure = error instanceof OAuthFailure ? error : null;
  const code = failure?.code ?? 'sign_in_failed';
  if (failure) req.log.warn({ provider, authError: code, reason: failure.message }, 'sign-in with identity provider refused');
  else req.log.error({ err: error, provider }, 'sign-in with identity provider failed');
  await auditFailedSignIn(services, provider, code);
  res.redirect(302, `/?authError=${encodeURIComponent(code)}`);
}

/** GET /api/auth/sign-in/{provider}?redirectTo=/path → 302 to the provider. */
export function oauthSignInRoute(services: Services, providers: OAuthProviders) {
  return async (req: Request, res: Response) => {
    const provider = await providerFor(services, providers, req, res);
    if (!provider) return;
    try {
      const redirectTo = safeRedirectPath(req.query.redirectTo, services.auth.appOrigin);
      const started = await beginSignIn({ provider, hash: services.auth.hash, appBaseUrl: services.auth.appBaseUrl, redirectTo });
      res.append('Set-Cookie', started.cookie);
      res.redirect(302, started.location);
    } catch (error) {
      await failSignIn(services, req, res, provider.id, error);
    }
  };
}

/** GET /api/auth/callback/{provider}?code&state → session cookie, 302 to redirectTo (or /?authError=code). */
export function oauthCallbackRoute(services: Services, providers: OAuthProviders) {
  return async (req: Request, res: Response) => {
    const provider = await providerFor(services, providers, req, res);
    if (!provider) return;
    const { appBaseUrl } = services.auth;
    // One attempt, one callback: the state cookie goes whatever happens.
    res.append('Set-Cookie', stateCookie('', appBaseUrl.startsWith('https:'), 0));
    try {
      const search = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
      const signedIn = await finishSignIn({
        provider,
        auth: services.auth,
        em: services.persistence.fork(),
        appBaseUrl,
        search,
        sealedAttempt: readStateCookie(req.headers.cookie),
        admission: { config: services.config, hash: services.auth.hash, instanceOrganizationId: services.persistence.localOrganizationId() },
      });
      res.append('Set-Cookie', services.auth.lucia.createSessionCookie(signedIn.session.id).serialize());
      await auditSignIn(services, provider.id, signedIn);
      res.redirect(302, signedIn.redirectTo);
    } catch (error) {
      await failSignIn(services, req, res, provider.id, error);
    }
  };
}
