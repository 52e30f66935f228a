import { z } from 'zod';
import { readinessSchema } from '../../contracts/system.js';
import { checkReadiness } from './check-readiness.js';
import { publicProcedure } from '../../server/trpc/procedures.js';

/** For load balancers and container health checks; `/health` stays the liveness answer the spec has. */
export const readyProcedure = publicProcedure
  .meta({
    errors: {
      DATABASE_UNAVAILABLE: 'The database does not answer (`checks` in the body)',
      STORE_UNAVAILABLE:
        "An environment connection's store does not answer (named in the message; `checks` in the body)",
    },
    openapi: {
      method: 'GET',
      path: '/ready',
      tags: ['system'],
      summary: "Readiness: the database and the environment connections' stores answer",
    },
  })
  .input(z.void())
  .output(readinessSchema)
  .query(({ ctx }) => checkReadiness(ctx.services));
