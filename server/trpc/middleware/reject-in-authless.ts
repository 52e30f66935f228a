import { AppError } from '../../../contracts/app-error.js';
import { middleware } from '../init.js';

/** Authless mode has no users: account actions (sign-up, sign-in, tokens, members) are refused with 400. */
export const rejectInAuthless = middleware(({ ctx, next }) => {
  if (ctx.services.config.authless) {
    throw new AppError(
      'AUTHLESS_MODE',
      'Authentication is disabled: the service runs in authless mode (SERVICE_AUTHLESS=true)',
    );
  }
  return next();
});
