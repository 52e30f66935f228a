import { z } from 'zod';
import { modeSchema } from '../../contracts/system.js';
import { runtimeMode } from './runtime-config.js';
import { publicProcedure } from '../../server/trpc/procedures.js';

export const modeProcedure = publicProcedure
  .meta({
    openapi: { method: 'GET', path: '/mode', tags: ['system'], summary: 'Auth, persistence and connection modes' },
  })
  .input(z.void())
  .output(modeSchema)
  .query(({ ctx }) => runtimeMode(ctx.services.config));
