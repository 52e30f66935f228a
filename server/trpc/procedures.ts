import { baseProcedure } from './init.js';
import { decodePathParams } from './middleware/decode-path-params.js';
import { mapErrors } from './middleware/map-errors.js';

/** Every procedure starts here: errors mapped, REST path params decoded. */
export const publicProcedure = baseProcedure.use(mapErrors).use(decodePathParams);

/** For procedures that touch the database: a fresh EntityManager per call. */
export const persistedProcedure = publicProcedure.use(({ ctx, next }) =>
  next({ ctx: { em: ctx.services.persistence.fork() } }),
);
