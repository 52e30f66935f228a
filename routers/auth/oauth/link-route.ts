import type { Request, Response } from 'express';
import { recordAccountEvent } from '../record-account-event.js';
import { identifyRequest } from '../../../server/auth/identity.js';
import type { OAuthProviders } from '../../../server/auth/oauth/create-providers.js';
import { linkIdentity } from './link-identity.js';
import { OAuthFailure, type ExternalProfile } from '../../../server/auth/oauth/oauth-provider.js';
import { safeRedirectPath } from './safe-redirect.js';
import type { SignInAttempt } from './state-cookie.js';
import { sendError, sendErrorDescription } from '../../../server/http/error-body.js';
import type { Services } from '../../../server/services.js';
import { describeError } from '../../../server/trpc/errors.js';
import { beginSignIn } from './begin-sign-in.js';
import { authErrorOf, providerFor } from './provider-route.js';

export const oauthLinkPath = '/auth/link/:provider';
const linkAction = 'auth.oauth.link';

/**
 * A link started by another site's page could attach an account that site's
 * owner controls at the provider (logged in there in this browser) to the
 * signed-in user: only navigations from the app itself, or typed in, start one.
 */
const fromAnotherSite = (req: Request) => ['cross-site', 'same-site'].includes(String(req.headers['sec-fetch-site']));

/** The signed-in user (a session, not a token) asking to link; null when answered (401, 403, 503). */
async function linkingUser(services: Services, req: Request, res: Response): Promise<string | null> {
  const identity = await identifyRequest(services, req, res).catch((error: unknown) => {
    sendErrorDescription(res, describeError(error));
    return undefined;
  });
  if (identity === undefined) return null;
  if (identity?.kind !== 'user') {
    sendError(
      res,
      'UNAUTHORIZED',
      'Sign in (the session cookie) to link an identity provider account to yourself; API tokens cannot',
    );
    return null;
  }
  if (fromAnotherSite(req)) {
    sendError(
      res,
      'FORBIDDEN',
      'Linking starts from this app only (Sec-Fetch-Site says another site sent the browser here)',
    );
    return null;
  }
  return identity.user.id;
}

/** GET /api/auth/link/{provider}?redirectTo=/path → 302 to the provider; its callback links that account to the signed-in user. */
export function oauthLinkRoute(services: Services, providers: OAuthProviders) {
  return async (req: Request, res: Response) => {
    const provider = await providerFor(services, providers, req, res);
    if (!provider) return;
    const linkUserId = await linkingUser(services, req, res);
    if (!linkUserId) return;
    try {
      const redirectTo = safeRedirectPath(req.query.redirectTo, services.auth.appOrigin);
      const started = await beginSignIn({
        provider,
        hash: services.auth.hash,
        appBaseUrl: services.auth.appBaseUrl,
        redirectTo,
        linkUserId,
      });
      res.append('Set-Cookie', started.cookie);
      res.redirect(302, started.location);
    } catch (error) {
      await failLink(services, req, res, { provider: provider.id, linkUserId, error });
    }
  };
}

/**
 * A link attempt's callback (oauth-routes.ts sends it here): only the session
 * of the user who started it finishes it, and the provider account is linked
 * to that user, never to whoever has its email. Audited in their organizations.
 */
export async function finishLink(
  services: Services,
  req: Request,
  res: Response,
  input: { provider: string; attempt: SignInAttempt; profile: ExternalProfile; linkUserId: string },
): Promise<void> {
  const identity = await identifyRequest(services, req, res);
  if (identity?.kind !== 'user' || identity.user.id !== input.linkUserId) {
    throw new OAuthFailure(
      'link_session_mismatch',
      'the callback came without the session of the user who started the link',
    );
  }
  const outcome = await linkIdentity(services.persistence.fork(), input.provider, input.profile, input.linkUserId);
  await recordAccountEvent(services, {
    userId: input.linkUserId,
    action: linkAction,
    outcome: 'success',
    parameters: { provider: input.provider, outcome },
  });
  res.redirect(302, input.attempt.redirectTo);
}

/** A refused link: audited for the user who started it; the browser lands on /?authError=code. */
export async function failLink(
  services: Services,
  req: Request,
  res: Response,
  input: { provider: string; linkUserId: string; error: unknown },
): Promise<void> {
  const code = authErrorOf(req, input.provider, input.error);
  await recordAccountEvent(services, {
    userId: input.linkUserId,
    action: linkAction,
    outcome: 'denied',
    errorCode: code,
    parameters: { provider: input.provider },
  }).catch((error: unknown) =>
    req.log.warn({ err: error, provider: input.provider, authError: code }, 'refused link not audited'),
  );
  res.redirect(302, `/?authError=${encodeURIComponent(code)}`);
}
