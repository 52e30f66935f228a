import { z } from 'zod';
import { sessionSnapshotSchema } from '../../contracts/system.js';
import { sessionSnapshot } from './session-snapshot.js';
import { resolveActor } from '../../server/auth/resolve-actor.js';
import { persistedProcedure } from '../../server/trpc/procedures.js';

/** Answers signed-out callers too (200, `authenticated: false`): it is how a client learns it must sign in. */
export const sessionProcedure = persistedProcedure
  .meta({
    errors: { FORBIDDEN: 'x-organization-id names an organization you are not a member of' },
    openapi: {
      method: 'GET',
      path: '/session',
      tags: ['system'],
      summary: 'Session snapshot: user, active organization, role, memberships',
    },
  })
  .input(z.void())
  .output(sessionSnapshotSchema)
  .query(async ({ ctx }) => sessionSnapshot({ em: ctx.em, actor: await resolveActor(ctx) }));
