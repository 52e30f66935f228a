import type { Request, Response } from 'express';
import { z } from 'zod';
import type { QueueEvent } from '../../contracts/events.js';
import { AppError } from '../../domain/errors.js';
import { authorize } from '../auth/authorize.js';
import { resolveActor } from '../auth/resolve-actor.js';
import type { Services } from '../services.js';
import { openConnection } from '../stores/open-connection.js';
import { isStoreUnavailable, storeUnavailable } from '../stores/store-errors.js';
import type { StoreHandle } from '../stores/store-handle.js';
import { createHttpContextFactory } from '../trpc/context.js';
import { describeError } from '../trpc/errors.js';
import { sendErrorDescription } from './error-body.js';

export const queueEventsPath = '/c/:connectionId/queues/:queueName/events';

const eventsQuery = z.object({
  prefix: z.string().min(1).max(200).optional(),
  includeData: z.stringbool().default(false),
});

export interface QueueEventsRouteOptions {
  heartbeatMs: number;
}

/** Same checks as every connection route: signed in (401), allowed (403), connection exists and is ours (404/403). */
async function openWatchedStore(services: Services, req: Request, res: Response): Promise<StoreHandle> {
  const ctx = createHttpContextFactory(services, 'rest')({ req, res });
  const actor = await resolveActor(ctx);
  if (!actor) throw new AppError('UNAUTHORIZED', 'Authentication required: sign in or send an API token');
  authorize(actor, 'jobs.read', 'queueEvents');
  return openConnection(services, actor, req.params.connectionId);
}

function writeEvent(res: Response, event: QueueEvent): void {
  res.write(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

/**
 * Server-Sent Events for one queue. Not a tRPC procedure: the REST adapter
 * cannot stream. Subscribers share one QueueEvents feed per queue (see
 * QueueEventHub); the feed closes with its last subscriber.
 */
export function queueEventsRoute(services: Services, options: QueueEventsRouteOptions) {
  return async (req: Request<{ connectionId: string; queueName: string }>, res: Response): Promise<void> => {
    let store: StoreHandle | undefined;
    let leave: (() => Promise<void>) | undefined;
    try {
      store = await openWatchedStore(services, req, res);
      const query = eventsQuery.parse(req.query);
      const prefix = query.prefix ?? store.defaultPrefix;
      res.status(200).set({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
      const subscription = services.events.subscribe(store, req.params.queueName, prefix, { includeData: query.includeData }, (event) => writeEvent(res, event));
      leave = await subscription;
    } catch (error) {
      const cause = store && isStoreUnavailable(error) ? storeUnavailable(store.connection, error) : error;
      if (!res.headersSent) return sendErrorDescription(res, describeError(cause));
      return void res.end();
    }
    res.flushHeaders();
    res.write(`retry: 3000\n: subscribed to ${req.params.queueName}\n\n`);
    const heartbeat = setInterval(() => res.write(`: heartbeat ${Date.now()}\n\n`), options.heartbeatMs);
    req.on('close', () => {
      clearInterval(heartbeat);
      void leave?.();
    });
  };
}
