import type { TaskHandler } from '../server/tasks/task-handler.js';
import { createCallerFactory, router } from '../server/trpc/init.js';
import { alertDestinationsRouter } from './alert-destinations/router.js';
import { alertsRouter } from './alerts/router.js';
import { auditRouter } from './audit/router.js';
import { authRouter } from './auth/router.js';
import { organizationsRouter } from './organizations/router.js';
import { invitationsRouter } from './invitations/router.js';
import { createDestination, updateDestination } from './alert-destinations/destination-rows.js';
import { createRule, updateRule } from './alerts/alert-rules.js';
import { createConnection } from './connections/create-connection.js';
import { connectionsRouter } from './connections/router.js';
import { updateConnection } from './connections/update-connection.js';
import { definitionsRouter } from './definitions/router.js';
import { discoveryRouter } from './discovery/router.js';
import { historyRouter } from './history/router.js';
import { removeAcrossTask, retryAcrossTask } from './jobs/across-task.js';
import { moveTask } from './jobs/move-task.js';
import { removeTask } from './jobs/remove-task.js';
import { retryTask } from './jobs/retry-task.js';
import { jobsRouter } from './jobs/router.js';
import { metricsRouter } from './metrics/router.js';
import { purgeTask } from './queues/purge-task.js';
import { queuesRouter } from './queues/router.js';
import { schedulersRouter } from './schedulers/router.js';
import { saveScheduler } from './schedulers/save-scheduler.js';
import { toScheduler } from './schedulers/to-scheduler.js';
import { toRepeatOptions } from './schedulers/validate-schedule.js';
import { storeKeysRouter } from './store-keys/router.js';
import { systemRouter } from './system/router.js';
import { tasksRouter } from './tasks/router.js';
import { workersRouter } from './workers/router.js';

/** The resources' own writers, for definitions imports (routers/definitions/definition-writers.ts). */
const definitionWriters = {
  createConnection,
  updateConnection,
  toScheduler,
  checkSchedule: toRepeatOptions,
  saveScheduler,
  createRule,
  updateRule,
  createDestination,
  updateDestination,
};

/** Mounts every resource router; the whole API surface in one list. */
export const appRouter = router({
  system: systemRouter,
  connections: connectionsRouter,
  jobs: jobsRouter,
  schedulers: schedulersRouter,
  workers: workersRouter,
  metrics: metricsRouter,
  history: historyRouter,
  alerts: alertsRouter,
  alertDestinations: alertDestinationsRouter,
  storeKeys: storeKeysRouter,
  auth: authRouter,
  organizations: organizationsRouter,
  invitations: invitationsRouter,
  audit: auditRouter,
  queues: queuesRouter,
  discovery: discoveryRouter,
  tasks: tasksRouter,
  definitions: definitionsRouter(definitionWriters),
});

export type AppRouter = typeof appRouter;

/** In-process calls without HTTP: `createCaller(createInnerContext(services))`. */
export const createCaller = createCallerFactory(appRouter);

/**
 * Routes that are not procedures (an event stream, a text exposition); the HTTP app mounts them
 * with the same middleware the procedures use.
 */
export { queueEventsPath, queueEventsRoute } from './events/queue-events-route.js';
export { prometheusRoute } from './metrics/prometheus-route.js';
export { oauthCallbackPath, oauthCallbackRoute, oauthSignInPath, oauthSignInRoute } from './auth/oauth/oauth-routes.js';
export { oauthLinkPath, oauthLinkRoute } from './auth/oauth/link-route.js';
export { auditExportPath, auditExportRoute } from './audit/export-route.js';

/** What background tasks can do, by kind: the entry hands them to the task runner. */
export const taskHandlers: TaskHandler[] = [
  retryTask,
  removeTask,
  moveTask,
  retryAcrossTask,
  removeAcrossTask,
  purgeTask,
];
