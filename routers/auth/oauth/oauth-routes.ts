import type { Request, Response } from 'express';
import type { OAuthProviders } from '../../../server/auth/oauth/create-providers.js';
import { safeRedirectPath } from './safe-redirect.js';
import { openAttempt, readStateCookie, stateCookie } from './state-cookie.js';
import type { Services } from '../../../server/services.js';
import { auditFailedSignIn, auditSignIn } from './audit-sign-in.js';
import { beginSignIn } from './begin-sign-in.js';
import { completeAttempt, finishSignIn } from './finish-sign-in.js';
import { failLink, finishLink } from './link-route.js';
import { authErrorOf, providerFor } from './provider-route.js';

export const oauthSignInPath = '/auth/sign-in/:provider';
export const oauthCallbackPath = '/auth/callback/:provider';

/** Lands the browser on the app with a code it can show. */
async function failSignIn(
  services: Services,
  req: Request,
  res: Response,
  provider: string,
  error: unknown,
): Promise<void> {
  const code = authErrorOf(req, provider, error);
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
      const started = await beginSignIn({
        provider,
        hash: services.auth.hash,
        appBaseUrl: services.auth.appBaseUrl,
        redirectTo,
      });
      res.append('Set-Cookie', started.cookie);
      res.redirect(302, started.location);
    } catch (error) {
      await failSignIn(services, req, res, provider.id, error);
    }
  };
}

/**
 * GET /api/auth/callback/{provider}?code&state: a sign-in (session cookie,
 * 302 to redirectTo) or, when the attempt was a link's, a link for the user
 * who started it (see link-route.ts); failures land on /?authError=code.
 */
export function oauthCallbackRoute(services: Services, providers: OAuthProviders) {
  return async (req: Request, res: Response) => {
    const provider = await providerFor(services, providers, req, res);
    if (!provider) return;
    const { appBaseUrl } = services.auth;
    // One attempt, one callback: the state cookie goes whatever happens.
    res.append('Set-Cookie', stateCookie('', appBaseUrl.startsWith('https:'), 0));
    const sealedAttempt = readStateCookie(req.headers.cookie);
    const linkUserId = openAttempt(services.auth.hash, sealedAttempt)?.linkUserId;
    try {
      const search = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
      const { attempt, profile } = await completeAttempt({
        provider,
        auth: services.auth,
        appBaseUrl,
        search,
        sealedAttempt,
      });
      if (linkUserId)
        return await finishLink(services, req, res, { provider: provider.id, attempt, profile, linkUserId });
      const signedIn = await finishSignIn({
        provider,
        auth: services.auth,
        em: services.persistence.fork(),
        attempt,
        profile,
        admission: {
          config: services.config,
          hash: services.auth.hash,
          instanceOrganizationId: services.persistence.localOrganizationId(),
        },
      });
      res.append('Set-Cookie', services.auth.lucia.createSessionCookie(signedIn.session.id).serialize());
      await auditSignIn(services, provider.id, signedIn);
      res.redirect(302, signedIn.redirectTo);
    } catch (error) {
      if (linkUserId) await failLink(services, req, res, { provider: provider.id, linkUserId, error });
      else await failSignIn(services, req, res, provider.id, error);
    }
  };
}
