import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { restApi } from '../../server/http/rest/rest-api.js';
import { createInnerContext, type Context } from '../../server/trpc/context.js';
import { createCallerFactory, router } from '../../server/trpc/init.js';
import { publicProcedure } from '../../server/trpc/procedures.js';
import { restOnlyServices } from './support/rest-only-services.js';

const echoRouter = router({
  echo: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/echo/{key}' } })
    .input(z.object({ key: z.string() }))
    .output(z.object({ key: z.string() }))
    .query(({ input }) => ({ key: input.key })),
});

describe('path parameters', () => {
  const services = restOnlyServices();
  let base: string;
  let server: ReturnType<express.Express['listen']>;

  beforeAll(async () => {
    const app = express();
    app.use(
      '/api',
      restApi(echoRouter, {
        plainGetRoutes: [],
        createContext: (): Context => createInnerContext(services, 'rest'),
        onError: () => {},
        successStatus: () => 200,
      }).middleware,
    );
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  afterAll(() => void server.close());

  it.each(['bull:my queue:1', 'a/b/c', '100% done', 'ünïcødé:✓', 'plain'])(
    'decodes %j on REST exactly once',
    async (key) => {
      const response = await fetch(`${base}/echo/${encodeURIComponent(key)}`);
      expect(await response.json()).toEqual({ key });
    },
  );

  it('leaves tRPC input alone (a literal %41 is not decoded)', async () => {
    const caller = createCallerFactory(echoRouter)(createInnerContext(services, 'trpc'));
    expect(await caller.echo({ key: 'x%41y' })).toEqual({ key: 'x%41y' });
  });

  it('answers malformed percent-encoding with 400 naming the parameter', async () => {
    const response = await fetch(`${base}/echo/100%zz`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 'BAD_REQUEST',
      message: 'Path parameter key is not valid percent-encoding',
    });
  });
});
