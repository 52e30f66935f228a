import { AppError } from '../../../domain/errors.js';
import { resolveActor } from '../../auth/resolve-actor.js';
import { middleware } from '../init.js';

/** 401 unless the request acts as someone; puts the actor in the context. */
export const authenticate = middleware(async ({ ctx, next }) => {
  const actor = await resolveActor(ctx);
  if (!actor) throw new AppError('UNAUTHORIZED', 'Authentication required: sign in or send an API token');
  return next({ ctx: { actor } });
});
