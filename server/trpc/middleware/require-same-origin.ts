import type { Request } from 'express';
import { AppError } from '../../../contracts/app-error.js';
import { bearerToken, sessionCookieValue } from '../../auth/identity.js';
import { middleware } from '../init.js';

function originOf(value: string | undefined): string | null {
  if (!value || value === 'null') return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/** The Origin header, or the origin of the Referer when a browser left Origin out. */
export function requestOrigin(req: Request): string | null {
  return originOf(req.headers.origin) ?? originOf(req.headers.referer);
}

/**
 * CSRF: a state-changing call that rides on the session cookie must come from
 * APP_BASE_URL's origin. Bearer-token calls carry no ambient credential and
 * are exempt; so are requests without the cookie (nothing to forge with).
 */
export const requireSameOrigin = middleware(async ({ ctx, type, next }) => {
  const { req, services } = ctx;
  if (type !== 'mutation' || services.config.authless || !req) return next();
  if (bearerToken(req) || !sessionCookieValue(services.auth, req)) return next();
  if (requestOrigin(req) !== services.auth.appOrigin) {
    throw new AppError(
      'FORBIDDEN',
      `Cross-site request refused: changes made with the session cookie must come from ${services.auth.appOrigin} (Origin or Referer header); scripts should use an API token`,
      { reason: 'csrf' },
    );
  }
  return next();
});
