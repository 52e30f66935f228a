import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { restFirst } from '../../server/http/rest/rest-first.js';
import { restApi } from '../../server/http/rest/rest-api.js';
import { restMatchOf } from '../../server/http/rest/rest-match.js';
import { createInnerContext } from '../../server/trpc/context.js';
import { router } from '../../server/trpc/init.js';
import { publicProcedure } from '../../server/trpc/procedures.js';
import { restOnlyServices } from './support/rest-only-services.js';

const echoRouter = router({
  get: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/echo/{key}' } })
    .input(z.object({ key: z.string(), times: z.coerce.number().int().default(1) }))
    .output(z.object({ key: z.string(), times: z.number(), ip: z.string() }))
    .query(({ input, ctx }) => ({
      key: input.key,
      times: input.times,
      ip: (ctx as unknown as { req?: Request }).req?.ip ?? '',
    })),
  set: publicProcedure
    .meta({ openapi: { method: 'POST', path: '/echo/{key}' } })
    .input(z.object({ key: z.string() }))
    .output(z.object({ key: z.string() }))
    .mutation(({ input }) => ({ key: input.key })),
});

/** The app's shape: an observing first layer, the REST middleware, then whatever express serves after it. */
describe('REST GETs answered before the express router (server/http/rest/rest-first.ts)', () => {
  const services = restOnlyServices();
  const seen = { observed: [] as string[], routerRequests: 0 };
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const app = express();
    const observe = (req: Request, res: Response, next: NextFunction) => {
      res.once('finish', () =>
        seen.observed.push(`${req.method} ${restMatchOf(res)?.template ?? req.originalUrl} ${res.statusCode}`),
      );
      next();
    };
    const rest = restApi(echoRouter, {
      basePath: '/api',
      plainGetRoutes: [],
      createContext: ({ req, res }) => ({ ...createInnerContext(services, 'rest'), req, res }),
      onError: () => {},
      successStatus: () => 200,
    });
    // Not in the app: a first layer that counts what express's router dispatches.
    app.use((_req, _res, next) => {
      seen.routerRequests++;
      next();
    });
    app.use(observe, rest.middleware);
    app.get('/api/plain', (_req, res) => void res.json({ plain: true }));
    const { serverOptions, listener } = restFirst(app, observe, rest);
    server = createServer(serverOptions, listener).listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  afterAll(() => void server.close());
  beforeEach(() => Object.assign(seen, { observed: [], routerRequests: 0 }));

  it('answers a GET for a procedure with its path and query decoded, observed once by its template, express request getters working', async () => {
    const response = await fetch(`${base}/echo/${encodeURIComponent('bull:my queue:1')}?times=3`);
    expect(await response.json()).toEqual({ key: 'bull:my queue:1', times: 3, ip: '127.0.0.1' });
    expect(seen.observed).toEqual(['GET /echo/{key} 200']);
    expect(seen.routerRequests).toBe(0);
  });

  it('refuses malformed percent-encoding the way the express route does', async () => {
    const response = await fetch(`${base}/echo/100%zz`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 'BAD_REQUEST',
      message: 'Path parameter key is not valid percent-encoding',
    });
  });

  it('leaves every other request to express: a body-carrying method, a plain route, an unknown path', async () => {
    const posted = await fetch(`${base}/echo/k`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect([posted.status, await posted.json()]).toEqual([200, { key: 'k' }]);
    expect(await (await fetch(`${base}/plain`)).json()).toEqual({ plain: true });
    expect((await fetch(`${base}/nowhere`)).status).toBe(404);
    // Each through express's router, observed once.
    expect(seen.routerRequests).toBe(3);
    expect(seen.observed).toEqual(['POST /echo/{key} 200', 'GET /api/plain 200', 'GET /api/nowhere 404']);
  });
});
