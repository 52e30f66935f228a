import type { Response } from 'express';
import { z } from 'zod';
import type { QueueEvent } from '../../contracts/events.js';
import { queryBoolean } from '../../contracts/query-boolean.js';
import { queueTargetOf, resolveQueue } from '../../server/bullmq/resolve-queue.js';
import { plainRoute } from '../../server/http/plain-route.js';
import type { Services } from '../../server/services.js';

export const queueEventsPath = '/c/:connectionId/queues/:queueName/events';

const eventsQuery = z.object({
  prefix: z.string().optional(),
  includeData: queryBoolean().default(false),
});

export interface QueueEventsRouteOptions {
  heartbeatMs: number;
}

function writeEvent(res: Response, event: QueueEvent): void {
  res.write(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

/**
 * Server-Sent Events for one queue. Not a tRPC procedure: the REST adapter
 * cannot stream. It is guarded as every queue route is (rate limit, 401,
 * 403, the connection, 404 for a missing queue). Subscribers share one
 * QueueEvents feed per queue (see QueueEventHub); the feed closes with its
 * last subscriber.
 */
export function queueEventsRoute(services: Services, options: QueueEventsRouteOptions) {
  return plainRoute<{ connectionId: string; queueName: string }>(
    services,
    'queueEvents',
    async ({ req, res, requireActor, openConnection }) => {
      const actor = await requireActor('jobs.read');
      const store = await openConnection(actor, req.params.connectionId);
      const query = eventsQuery.parse(req.query);
      const { ref } = await resolveQueue(
        store,
        queueTargetOf({ queueName: req.params.queueName, prefix: query.prefix }),
      );
      // Headers first: an event may arrive as soon as the feed is subscribed (a failed subscription still answers its error).
      res.status(200).set({
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-cache, no-transform',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      const leave = await services.events.subscribe(
        store,
        ref.name,
        ref.prefix,
        { includeData: query.includeData },
        (event) => writeEvent(res, event),
      );
      res.flushHeaders();
      services.streams.add(res);
      res.write(`retry: 3000\n: subscribed to ${ref.name}\n\n`);
      const heartbeat = setInterval(() => res.write(`: heartbeat ${Date.now()}\n\n`), options.heartbeatMs);
      req.on('close', () => {
        clearInterval(heartbeat);
        void leave();
      });
    },
  );
}
