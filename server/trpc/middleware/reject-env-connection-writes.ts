import { AppError } from '../../../contracts/app-error.js';
import { middleware } from '../init.js';

/** In environment-connection mode the SERVICE_REDIS_URL_* variables are the only source of connections. */
export const rejectEnvConnectionWrites = middleware(({ ctx, next }) => {
  if (ctx.services.config.envConnections) {
    throw new AppError(
      'FORBIDDEN',
      'Connections are managed by the environment (SERVICE_ENV_CONNECTIONS=true): change the SERVICE_REDIS_URL_* variables instead',
    );
  }
  return next();
});
