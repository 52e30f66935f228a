import { requireActor } from '../../auth/require-actor.js';
import { middleware } from '../init.js';

/**
 * 401 unless the request acts as someone; puts the actor in the context.
 * Routes under `/organizations/{organizationId}` act in that organization.
 */
export const authenticate = middleware(async ({ ctx, meta, getRawInput, next }) => {
  const routeOrganizationId = meta?.openapi?.path.includes('{organizationId}')
    ? ((await getRawInput()) as { organizationId?: unknown } | undefined)?.organizationId
    : undefined;
  const actor = await requireActor(ctx, typeof routeOrganizationId === 'string' ? routeOrganizationId : undefined);
  return next({ ctx: { actor } });
});
