import { getInputOutputParsers } from 'trpc-to-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeChangeByPermission } from '../../contracts/permissions.js';
import { appRouter } from '../../routers/_app.js';
import { partsOf, proceduresOf } from '../../server/trpc/trpc-internals.js';
import { buildOpenApiDocument } from '../../server/http/openapi-document.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { seedQueue } from '../helpers/queues.js';
import { asBrowser, signUp, type SignedInUser } from '../helpers/auth.js';
import { redisUrl, storeFixture } from '../helpers/stores.js';

type ZodNode = { _zod?: { def: Record<string, any> } };

/** Every object in a zod schema that would drop a field it does not declare, as a dotted path. */
function lenientObjects(schema: ZodNode, path = 'input'): string[] {
  const def = schema?._zod?.def;
  if (!def) return [];
  switch (def.type) {
    case 'object': {
      const strict = def.catchall?._zod?.def?.type === 'never';
      const nested = Object.entries(def.shape as Record<string, ZodNode>).flatMap(([key, value]) =>
        lenientObjects(value, `${path}.${key}`),
      );
      return [...(strict ? [] : [path]), ...nested];
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      return lenientObjects(def.innerType, path);
    case 'pipe':
      return lenientObjects(def.in, path);
    case 'array':
      return lenientObjects(def.element, `${path}[]`);
    case 'union':
      return (def.options as ZodNode[]).flatMap((option, index) => lenientObjects(option, `${path}|${index}`));
    case 'intersection':
      return [...lenientObjects(def.left, path), ...lenientObjects(def.right, path)];
    default:
      return [];
  }
}

const procedures = Object.entries(proceduresOf(appRouter));

describe('strict inputs, generated from the router', () => {
  it('every procedure declares its input (void when it takes none): tRPC ignores input given to one that declares none', () => {
    const undeclared = procedures
      .filter(([, procedure]) => partsOf(procedure).inputs.length === 0)
      .map(([name]) => name);
    expect(undeclared).toEqual([]);
  });

  it('every query changes nothing in a store (mutations alone get the protection decision)', () => {
    const writingQueries = procedures.filter(([, procedure]) => {
      const { meta, type } = partsOf(procedure);
      const permission = meta?.permission;
      return type === 'query' && permission !== undefined && storeChangeByPermission[permission] !== 'none';
    });
    expect(writingQueries.map(([name]) => name)).toEqual([]);
  });

  it('every procedure input is a strict object, down to its nested objects', () => {
    const lenient = procedures.flatMap(([name, procedure]) =>
      lenientObjects(getInputOutputParsers(procedure as never).inputParser as ZodNode).map(
        (path) => `${name}: ${path}`,
      ),
    );
    expect(lenient).toEqual([]);
  });

  it('the API document says so: every request body (each of its forms) has additionalProperties: false', () => {
    const document = buildOpenApiDocument('0') as { paths: Record<string, Record<string, any>> };
    const open = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, operation]) => {
        const schema = operation?.requestBody?.content?.['application/json']?.schema;
        if (!schema) return [];
        const forms = schema.oneOf ?? [schema];
        return forms.every((form: { additionalProperties?: unknown }) => form.additionalProperties === false)
          ? []
          : [`${method} ${path}`];
      }),
    );
    expect(open).toEqual([]);
  });
});

describe('a field a route does not take is refused by name, on every route (REST and tRPC)', () => {
  const fixture = storeFixture();
  let app: TestApp;
  let owner: SignedInUser;
  beforeAll(async () => {
    app = await bootApp({ env: { SERVICE_QUEUE_LIST_CACHE_MS: '0' } });
    owner = await signUp(app, 'owner');
    const created = await request(`${app.api}/connections`, {
      method: 'POST',
      headers: asBrowser(app, owner),
      body: { name: 'main', url: `${redisUrl}/0`, prefix: fixture.prefix },
    });
    expect(created.status).toBe(201);
    await (await seedQueue(fixture.bullmq, 'q', { waiting: 1 })).close();
  });
  afterAll(async () => {
    await app?.close();
    await fixture.cleanup();
  });

  const values = {
    connectionId: 'main',
    queueName: 'q',
    jobId: 'x',
    key: 'x',
    taskId: 'x',
    schedulerId: 'x',
    ruleId: 'x',
    eventId: 'x',
    destinationId: 'x',
    id: 'x',
    token: 'x',
    userId: 'x',
    invitationId: 'x',
    provider: 'x',
  };
  const sampleValueOf = (name: string) =>
    name === 'organizationId' ? owner.organizationId : values[name as keyof typeof values];
  const routes = procedures.flatMap(([name, procedure]) => {
    const { meta, type } = partsOf(procedure);
    return meta?.openapi
      ? [{ name, method: meta.openapi.method, path: meta.openapi.path, mutation: type === 'mutation' }]
      : [];
  });

  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    'REST %s',
    async (_label, route) => {
      const url = `${app.api}${route.path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(sampleValueOf(name)))}`;
      const headers = asBrowser(app, owner);
      const response =
        route.method === 'GET'
          ? await request(`${url}?bogusField=1`, { headers })
          : await request(url, { method: route.method, headers, body: { bogusField: 1 } });
      expect([response.status, response.body.code, response.body.fields]).toEqual([
        400,
        'UNKNOWN_FIELD',
        ['bogusField'],
      ]);
    },
  );

  it.each(routes.map((route) => [route.name, route] as const))('tRPC %s', async (name, route) => {
    const params = (route.path.match(/\{(\w+)\}/g) ?? []).map((param) => param.slice(1, -1));
    const input = { ...Object.fromEntries(params.map((param) => [param, sampleValueOf(param)])), bogusField: 1 };
    const url = `${app.api}/trpc/${name}`;
    const headers = asBrowser(app, owner);
    const response = route.mutation
      ? await request(url, { method: 'POST', headers, body: input })
      : await request(`${url}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers });
    // A procedure that takes no input refuses any (VALIDATION_FAILED: expected none); the others name the field.
    expect([response.status, response.body.error?.data?.code], name).toEqual([
      400,
      expect.stringMatching(/^(UNKNOWN_FIELD|VALIDATION_FAILED)$/),
    ]);
    if (params.length > 0) expect(response.body.error.data.details.fields, name).toEqual(['bogusField']);
  });
});
