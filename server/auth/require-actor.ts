import { AppError } from '../../contracts/app-error.js';
import type { Context } from '../trpc/context.js';
import type { Actor } from './actor.js';
import { resolveActor } from './resolve-actor.js';

/**
 * Who the request acts as; 401 when nobody. The one identity check of the
 * procedures (authenticate) and the plain express routes (events, Prometheus).
 */
export async function requireActor(ctx: Context, routeOrganizationId?: string): Promise<Actor> {
  const actor = await resolveActor(ctx, routeOrganizationId);
  if (!actor) throw new AppError('UNAUTHORIZED', 'Authentication required: sign in or send an API token');
  return actor;
}
