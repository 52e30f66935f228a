import { z } from 'zod';
import { healthSchema } from '../../contracts/system.js';
import { checkHealth } from './check-health.js';
import { publicProcedure } from '../../server/trpc/procedures.js';

export const healthProcedure = publicProcedure
  .meta({ openapi: { method: 'GET', path: '/health', tags: ['system'], summary: 'Health check' } })
  .input(z.void())
  .output(healthSchema)
  .query(({ ctx }) => checkHealth(ctx.services.persistence, Math.round(process.uptime())));
