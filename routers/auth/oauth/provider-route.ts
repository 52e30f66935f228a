import type { Request, Response } from 'express';
import type { OAuthProviders } from '../../../server/auth/oauth/create-providers.js';
import { OAuthFailure, type OAuthProvider } from '../../../server/auth/oauth/oauth-provider.js';
import { sendError } from '../../../server/http/error-body.js';
import { withinRateLimit } from '../../../server/rate-limit/limit-request.js';
import type { Services } from '../../../server/services.js';

/**
 * The checks the provider routes share: 400 in authless mode, 404 for a
 * provider that is not configured, the sign-in rate limit. Null when answered.
 */
export async function providerFor(
  services: Services,
  providers: OAuthProviders,
  req: Request,
  res: Response,
): Promise<OAuthProvider | null> {
  if (services.config.authless) {
    sendError(
      res,
      'AUTHLESS_MODE',
      'Authentication is disabled: the service runs in authless mode (SERVICE_AUTHLESS=true)',
    );
    return null;
  }
  const provider = providers.get(String(req.params.provider));
  if (!provider) {
    sendError(res, 'NOT_FOUND', `No identity provider "${String(req.params.provider)}" is configured`);
    return null;
  }
  return (await withinRateLimit(services, req, res, 'credentials')) ? provider : null;
}

/** The code the browser lands with; the details stay in the log. */
export function authErrorOf(req: Request, provider: string, error: unknown): string {
  const failure = error instanceof OAuthFailure ? error : null;
  const code = failure?.code ?? 'sign_in_failed';
  if (failure)
    req.log.warn({ provider, authError: code, reason: failure.message }, 'sign-in with identity provider refused');
  else req.log.error({ err: error, provider }, 'sign-in with identity provider failed');
  return code;
}
