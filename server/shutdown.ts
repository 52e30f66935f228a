import type { RunningServer } from './http/listen.js';
import type { Logger } from './logger.js';
import { closeServices, type Services } from './services.js';

export interface ShutdownOptions {
  running: RunningServer;
  services: Services;
  logger: Logger;
  /** A last resort: past this, the process exits 1 whatever is still open. */
  deadlineMs?: number;
}

const elapsed = (since: number) => Math.round(performance.now() - since);

/**
 * Graceful shutdown (SIGTERM, SIGINT), in the one order that lets nothing wait on what never ends:
 * 1. stop accepting connections (open ones keep being served, each answer now closing its connection);
 * 2. tell every event-stream client to reconnect (to another replica) and close its stream;
 * 3. stop background tasks and the history sampler, releasing their leases, so another replica
 *    resumes them at its next poll (a second) instead of after the lease's expiry;
 * 4. let in-flight requests finish, then close idle keep-alive connections;
 * 5. close stores and the database.
 * Resolves with the exit code: 0, or 1 when something failed or the deadline passed.
 */
export async function shutDown({ running, services, logger, deadlineMs = 30_000 }: ShutdownOptions): Promise<number> {
  const started = performance.now();
  let overdue: NodeJS.Timeout | undefined;
  const deadline = new Promise<number>((resolve) => {
    overdue = setTimeout(() => {
      logger.error(
        { ms: elapsed(started), inFlight: running.inFlight },
        'shutdown deadline passed; exiting with requests still open',
      );
      resolve(1);
    }, deadlineMs);
    overdue.unref();
  });
  const inOrder = async (): Promise<number> => {
    running.stopAccepting();
    const streams = await services.streams.closeAll();
    await Promise.all([services.tasks.stop(), services.history.stop()]);
    logger.info(
      { ms: elapsed(started), streams, inFlight: running.inFlight },
      'shutdown: streams closed, tasks stopped and leases released',
    );
    await running.drained();
    await closeServices(services);
    logger.info({ ms: elapsed(started) }, 'shutdown complete');
    return 0;
  };
  const failed = (error: unknown) => {
    logger.error({ err: error }, 'shutdown failed');
    return 1;
  };
  try {
    return await Promise.race([inOrder().catch(failed), deadline]);
  } finally {
    clearTimeout(overdue);
  }
}
