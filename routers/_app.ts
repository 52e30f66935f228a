import { createCallerFactory, router } from '../server/trpc/init.js';
import { auditRouter } from './audit/router.js';
import { authRouter } from './auth/router.js';
import { organizationsRouter } from './organizations/router.js';
import { connectionsRouter } from './connections/router.js';
import { jobsRouter } from './jobs/router.js';
import { metricsRouter } from './metrics/router.js';
import { queuesRouter } from './queues/router.js';
import { schedulersRouter } from './schedulers/router.js';
import { storeKeysRouter } from './store-keys/router.js';
import { systemRouter } from './system/router.js';
import { workersRouter } from './workers/router.js';

/** Mounts every resource router; the whole API surface in one list. */
export const appRouter = router({
  system: systemRouter,
  connections: connectionsRouter,
  jobs: jobsRouter,
  schedulers: schedulersRouter,
  workers: workersRouter,
  metrics: metricsRouter,
  storeKeys: storeKeysRouter,
  auth: authRouter,
  organizations: organizationsRouter,
  audit: auditRouter,
  queues: queuesRouter,
});

export type AppRouter = typeof appRouter;

/** In-process calls without HTTP: `createCaller(createInnerContext(services))`. */
export const createCaller = createCallerFactory(appRouter);
