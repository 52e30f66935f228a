import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { AnyRouter } from '@trpc/server';
import express from 'express';
import { createOpenApiExpressMiddleware } from 'trpc-to-openapi';
import { rewriteErrorBodies } from '../../server/http/error-body.js';
import type { Services } from '../../server/services.js';
import { createInnerContext } from '../../server/trpc/context.js';

/** Serves a test's own router over REST on port 0 with the app's real services, the errors shaped as the app shapes them. */
export async function serveTestRouter(services: Services, testRouter: AnyRouter): Promise<{ api: string; close(): void }> {
  const handler = createOpenApiExpressMiddleware({ router: testRouter, createContext: () => createInnerContext(services, 'rest') });
  const app = express();
  app.use('/api', (req, res) => {
    rewriteErrorBodies(res, req.url);
    return handler(req, res);
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { api: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, close: () => void server.close() };
}
