import { z } from 'zod';
import { runtimeConfigSchema } from '../../contracts/system.js';
import { recordSignInActivity } from './record-sign-in-activity.js';
import { runtimeConfig } from './runtime-config.js';
import { publicProcedure } from '../../server/trpc/procedures.js';
import type { Persistence } from '../../server/persistence/persistence.js';
import { AppError } from '../../contracts/app-error.js';

/** An EntityManager, or null while the database is unavailable; an unusable data directory still throws (500). */
function forkUnlessUnavailable(persistence: Persistence) {
  try {
    return persistence.fork();
  } catch (error) {
    if (error instanceof AppError && error.code === 'DATABASE_UNAVAILABLE') return null;
    throw error;
  }
}

/**
 * Needs no sign-in, yet goes through persistence: the spec has it fail with
 * 500 when the embedded data directory is unusable. A signed-in caller's
 * `lastSignInAt` is updated first (spec rule 4), never failing the call: a
 * database that is merely unavailable is skipped, and the config still answers 200.
 */
export const appConfigProcedure = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/app/config',
      tags: ['system'],
      summary: 'Client bootstrap: runtime mode and analytics settings',
    },
  })
  .input(z.void())
  .output(runtimeConfigSchema)
  .query(async ({ ctx }) => {
    const em = forkUnlessUnavailable(ctx.services.persistence);
    if (em) await recordSignInActivity({ em, identify: ctx.identify, logger: ctx.logger });
    return runtimeConfig(ctx.services.config);
  });
