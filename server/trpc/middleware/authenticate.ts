import { AppError } from '../../../domain/errors.js';
import { resolveActor } from '../../auth/resolve-actor.js';
import { middleware } from '../init.js';

/**
 * 401 unless the request acts as someone; puts the actor in the context.
 * Routes under `/organizations/{organizationId}` act in that organization.
 */
export const authenticate = middleware(async ({ ctx, meta, getRawInput, next }) => {
  const routeOrganizationId = meta?.openapi?.path.includes('{organizationId}')
    ? ((await getRawInput()) as { organizationId?: unknown } | undefined)?.organizationId
    : undefined;
  const actor = await resolveActor(ctx, typeof routeOrganizationId === 'string' ? routeOrganizationId : undefined);
  if (!actor) throw new AppError('UNAUTHORIZED', 'Authentication required: sign in or send an API token');
  return next({ ctx: { actor } });
});
