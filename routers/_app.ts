import { createCallerFactory, router } from '../server/trpc/init.js';
import { jobsRouter } from './jobs/router.js';
import { systemRouter } from './system/router.js';

/** Mounts every resource router; the whole API surface in one list. */
export const appRouter = router({
  system: systemRouter,
  jobs: jobsRouter,
});

export type AppRouter = typeof appRouter;

/** In-process calls without HTTP: `createCaller(createInnerContext(services))`. */
export const createCaller = createCallerFactory(appRouter);
