import { middleware } from '../init.js';

/** A fresh EntityManager per call, never a shared one. A call it served tells health the database answers. */
export const forkEntityManager = middleware(async ({ ctx, next }) => {
  const result = await next({ ctx: { em: ctx.services.persistence.fork() } });
  if (result.ok) ctx.services.persistence.reportAvailable();
  return result;
});
