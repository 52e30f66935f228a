import { createCallerFactory, router } from '../server/trpc/init.js';
import { connectionsRouter } from './connections/router.js';
import { jobsRouter } from './jobs/router.js';
import { systemRouter } from './system/router.js';

/** Mounts every resource router; the whole API surface in one list. */
export const appRouter = router({
  system: systemRouter,
  connections: connectionsRouter,
  jobs: jobsRouter,
});

export type AppRouter = typeof appRouter;

/** In-process calls without HTTP: `createCaller(createInnerContext(services))`. */
export const createCaller = createCallerFactory(appRouter);
