import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AnyTRPCRouter } from '@trpc/server';
import type { createExpressMiddleware } from '@trpc/server/adapters/express';
import { loadOnce } from '../load-once.js';

type EndpointOptions<TRouter extends AnyTRPCRouter> = Parameters<typeof createExpressMiddleware<TRouter>>[0];

/**
 * tRPC's own protocol (`/api/trpc`, the typed client's batch link), with its express adapter
 * loaded on the first call: the adapter and its response machinery are ~1.5 MB of heap that a
 * service answering REST only never needs (REST has its own handler, server/http/rest/).
 */
export function lazyTrpcEndpoint<TRouter extends AnyTRPCRouter>(options: EndpointOptions<TRouter>): RequestHandler {
  // A failed import is not kept (loadOnce): the next call tries again.
  const handler = loadOnce(
    async () => (await import('@trpc/server/adapters/express')).createExpressMiddleware(options) as RequestHandler,
  );
  return (req: Request, res: Response, next: NextFunction) => {
    // A failed import and an error thrown while serving both reach express's error handler.
    handler()
      .then((serve) => serve(req, res, next))
      .catch(next);
  };
}
