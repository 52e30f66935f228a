import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { AnyRouter } from '@trpc/server';
import express from 'express';
import { restApi } from '../../server/http/rest/rest-api.js';
import { successStatusOf } from '../../server/http/success-status.js';
import type { Services } from '../../server/services.js';
import { createInnerContext } from '../../server/trpc/context.js';

/** Serves a test's own router over REST on port 0 with the app's real services, the errors shaped as the app shapes them. */
export async function serveTestRouter(
  services: Services,
  testRouter: AnyRouter,
): Promise<{ api: string; close(): void }> {
  const app = express();
  app.use(
    '/api',
    restApi(testRouter, {
      plainGetRoutes: [],
      createContext: () => createInnerContext(services, 'rest'),
      onError: () => {},
      successStatus: (route, data) => successStatusOf(route.meta, data),
    }).middleware,
  );
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { api: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`, close: () => void server.close() };
}
