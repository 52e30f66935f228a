import { middleware } from '../init.js';

/** A fresh EntityManager per call, never a shared one. */
export const forkEntityManager = middleware(({ ctx, next }) => next({ ctx: { em: ctx.services.persistence.fork() } }));
