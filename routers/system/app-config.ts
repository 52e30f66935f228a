import { z } from 'zod';
import { runtimeConfigSchema } from '../../contracts/system.js';
import { recordSignInActivity } from '../../domain/auth/record-sign-in-activity.js';
import { runtimeConfig } from '../../domain/system/runtime-config.js';
import { persistedProcedure } from '../../server/trpc/procedures.js';

/**
 * Needs no sign-in, yet goes through persistence: the spec has it fail with
 * 500 when the embedded data directory is unusable. A signed-in caller's
 * `lastSignInAt` is updated first (spec rule 4), never failing the call.
 */
export const appConfig = persistedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/app/config',
      tags: ['system'],
      summary: 'Client bootstrap: runtime mode and analytics settings',
      errorResponses: { 500: 'Persistence is unavailable' },
    },
  })
  .input(z.void())
  .output(runtimeConfigSchema)
  .query(async ({ ctx }) => {
    await recordSignInActivity({ em: ctx.em, identify: ctx.identify, logger: ctx.logger });
    return runtimeConfig(ctx.services.config);
  });
