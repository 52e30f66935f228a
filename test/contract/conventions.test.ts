import { randomUUID } from 'node:crypto';
import type { AnyProcedure } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { asBrowser, signUp, uniqueEmail, type SignedInUser } from '../helpers/auth.js';
import { redisUrl } from '../helpers/stores.js';
import { appRouter } from '../../routers/_app.js';
import { locationTemplateOf } from '../../server/trpc/middleware/announce-location.js';
import type { ProcedureMeta } from '../../server/trpc/init.js';

/**
 * The request conventions (docs/api.md, "Request conventions") held for every
 * route, read from the procedures' meta: a route added later is checked
 * without editing this file. A route may keep apart from a convention only
 * with its reason in `meta.differs` (the document shows it).
 */
interface Route {
  procedure: string;
  method: string;
  path: string;
  meta: ProcedureMeta;
  definition: AnyProcedure;
}

const routes: Route[] = Object.entries(appRouter._def.procedures as unknown as Record<string, AnyProcedure>).flatMap(
  ([procedure, definition]) => {
    const meta = definition._def.meta as ProcedureMeta | undefined;
    return meta?.openapi ? [{ procedure, method: meta.openapi.method, path: meta.openapi.path, meta, definition }] : [];
  },
);

/** A path with every placeholder the same: `/a/{x}` and `/a/{id}` name the same route. */
const shapeOf = (path: string) => path.replace(/\{\w+\}/g, '{}');
const getShapes = new Set(routes.filter((route) => route.method === 'GET').map((route) => shapeOf(route.path)));

/** POSTs on a collection (a path that also lists with GET) and every route declaring 201: what makes a resource. */
const creates = routes.filter(
  (route) => route.method === 'POST' && (getShapes.has(shapeOf(route.path)) || route.meta.successStatus === 201),
);

describe('every create answers 201 with Location', () => {
  it('finds the creates it checks', () => {
    expect(creates.map((route) => route.procedure)).toEqual(
      expect.arrayContaining([
        'connections.create',
        'jobs.add',
        'auth.createToken',
        'organizations.create',
        'organizations.addMember',
        'invitations.create',
      ]),
    );
  });

  it.each(creates.map((route) => [route.procedure, route] as const))('%s', (_name, route) => {
    if (route.meta.differs?.create) return expect(route.meta.differs.create.length).toBeGreaterThan(20);
    expect({ status: route.meta.successStatus, location: route.meta.location }).toEqual({
      status: expect.any(Number),
      location: expect.any(String),
    });
    // 202 only for a create that finishes in the background (a discovery scan).
    expect([201, 202]).toContain(route.meta.successStatus);
  });

  it('names, in each Location, a resource one can GET', () => {
    const named = routes.flatMap((route) => {
      const template = locationTemplateOf(route.meta);
      return template ? [{ procedure: route.procedure, template, readable: getShapes.has(shapeOf(template)) }] : [];
    });
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((entry) => !entry.readable)).toEqual([]);
  });

  it('declares no Location on a route that creates nothing', () => {
    const stray = routes
      .filter((route) => route.meta.location && !creates.includes(route))
      .map((route) => route.procedure);
    expect(stray).toEqual([]);
  });
});

describe('every DELETE answers one body: { success: true, id } and what the route adds', () => {
  const deletes = routes.filter((route) => route.method === 'DELETE');

  it.each(deletes.map((route) => [route.procedure, route] as const))('%s', (_name, route) => {
    if (route.meta.differs?.delete) return expect(route.meta.differs.delete.length).toBeGreaterThan(20);
    type ObjectSchema = {
      $ref?: string;
      $defs?: Record<string, ObjectSchema>;
      properties?: Record<string, unknown>;
      required?: string[];
    };
    const generated = z.toJSONSchema((route.definition._def as unknown as { output: z.ZodType }).output, {
      io: 'output',
      unrepresentable: 'any',
    }) as ObjectSchema;
    // A schema with its own id (`DeletedQueue`) comes as a reference to its definition.
    const output = generated.$ref ? generated.$defs![generated.$ref.split('/').pop()!]! : generated;
    expect(output.properties).toMatchObject({ success: { type: 'boolean', const: true }, id: { type: 'string' } });
    expect(output.required).toEqual(expect.arrayContaining(['success', 'id']));
  });
});

/** The top-level fields of a procedure's input or output schema (following a reference to its own definition). */
function fieldsOf(schema: unknown, io: 'input' | 'output'): string[] {
  type ObjectSchema = { $ref?: string; $defs?: Record<string, ObjectSchema>; properties?: Record<string, unknown> };
  const generated = z.toJSONSchema(schema as z.ZodType, { io, unrepresentable: 'any' }) as ObjectSchema;
  return Object.keys(
    (generated.$ref ? generated.$defs![generated.$ref.split('/').pop()!]! : generated).properties ?? {},
  );
}

describe('one pagination shape: limit and cursor in, nextCursor out', () => {
  const pagingFields = ['limit', 'cursor', 'page', 'pageSize', 'offset', 'count'];
  const paged = routes
    .filter((route) => route.method === 'GET')
    .map((route) => ({
      route,
      input: (route.definition._def.inputs as unknown[]).flatMap((input) => fieldsOf(input, 'input')),
    }))
    .filter(({ input }) => input.some((field) => pagingFields.includes(field)));

  it('finds the lists that page', () => {
    expect(paged.map(({ route }) => route.procedure)).toEqual(
      expect.arrayContaining(['jobs.list', 'queues.list', 'audit.list', 'jobs.search', 'storeKeys.search']),
    );
  });

  it.each(paged.map(({ route, input }) => [route.procedure, route, input] as const))('%s', (_name, route, input) => {
    if (route.meta.differs?.pagination && !input.includes('cursor'))
      return expect(route.meta.differs.pagination.length).toBeGreaterThan(20);
    expect(input).toEqual(expect.arrayContaining(['limit', 'cursor']));
    expect(fieldsOf((route.definition._def as unknown as { output: unknown }).output, 'output')).toContain(
      'nextCursor',
    );
  });
});

type JsonSchema = {
  type?: string;
  enum?: unknown[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
};

/** Paths of the lists of enum values in an input schema that take no single value (an `anyOf` with the value alone beside the list). */
function listsWithoutSingleValue(
  schema: JsonSchema | undefined,
  path: string,
  found: string[],
  single = false,
): string[] {
  if (!schema) return found;
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const takesOne = branches.some((branch) => branch.enum);
    for (const branch of branches) listsWithoutSingleValue(branch, path, found, takesOne);
  }
  if (schema.type === 'array' && schema.items?.enum && !single) found.push(path);
  for (const [name, property] of Object.entries(schema.properties ?? {}))
    listsWithoutSingleValue(property, `${path}.${name}`, found);
  if (schema.items) listsWithoutSingleValue(schema.items, `${path}[]`, found);
  return found;
}

describe('a single value is accepted wherever a list of enum values is', () => {
  const inputSchemas = routes.flatMap((route) =>
    (route.definition._def.inputs as z.ZodType[]).map((input) => ({
      route,
      schema: z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as JsonSchema,
    })),
  );

  it('finds lists of enum values to check', () => {
    expect(inputSchemas.some(({ route }) => route.procedure === 'jobs.retry')).toBe(true);
  });

  it('in every route input', () => {
    const refusing = inputSchemas.flatMap(({ route, schema }) =>
      route.meta.differs?.['single value']
        ? []
        : listsWithoutSingleValue(schema, '', []).map((path) => `${route.procedure} ${path}`),
    );
    expect(refusing).toEqual([]);
  });
});

describe('Location over HTTP: each create names where to GET it', () => {
  let app: TestApp;
  let owner: SignedInUser;
  beforeAll(async () => {
    app = await bootApp({ env: { SERVICE_WEBHOOK_ALLOW: '127.0.0.1:9' } });
    owner = await signUp(app, 'location-owner');
  });
  afterAll(async () => app?.close());

  /** POSTs as the owner's browser, then GETs the answer's Location: both answers. */
  async function createAndFollow(path: string, body: unknown) {
    const headers = asBrowser(app, owner);
    const created = await request(`${app.api}${path}`, { method: 'POST', headers, body });
    const location = created.headers.get('location');
    const read = location ? await request(`${app.url}${location}`, { headers }) : undefined;
    return { status: created.status, body: created.body, location, read };
  }

  it('connections, jobs, tokens, organizations, invitations, members and destinations', async () => {
    const org = owner.organizationId;
    const connection = await createAndFollow('/connections', { name: 'location-redis', url: redisUrl });
    const job = await createAndFollow(`/c/${connection.body.id}/queues/location-${randomUUID()}/jobs`, {
      name: 'one',
      data: {},
    });
    const cases = {
      connection,
      job,
      token: await createAndFollow('/auth/tokens', { name: 'location-token' }),
      organization: await createAndFollow('/organizations', { name: 'Location team' }),
      invitation: await createAndFollow(`/organizations/${org}/invitations`, {
        email: uniqueEmail('invited'),
        role: 'viewer',
      }),
      member: await createAndFollow(`/organizations/${org}/members`, { email: uniqueEmail('member'), role: 'viewer' }),
      destination: await createAndFollow('/alerts/destinations', {
        type: 'webhook',
        name: 'location hook',
        url: 'http://127.0.0.1:9/hook',
      }),
    };
    for (const [name, result] of Object.entries(cases)) {
      expect({
        name,
        status: result.status,
        location: result.location,
        readStatus: result.read?.status,
        readId: result.read?.body.id,
      }).toEqual({
        name,
        status: 201,
        location: expect.stringMatching(new RegExp(`^/api/.+/${result.body.id}$`)),
        readStatus: 200,
        readId: result.body.id,
      });
    }
  });

  it('is documented on the 201 and 202 answers', async () => {
    const document = (await request(`${app.api}/openapi.json`)).body;
    expect(document.paths['/auth/tokens'].post.responses['201'].headers.Location.description).toMatch(
      /\/api\/auth\/tokens\/\{id\}/,
    );
    expect(
      document.paths['/c/{connectionId}/queues/{queueName}/jobs/retry'].post.responses['202'].headers.Location
        .description,
    ).toMatch(/tasks\/\{taskId\}/);
    expect(document.paths['/definitions'].post.description).toMatch(/Unlike the create convention/);
  });

  it('documents Idempotency-Key on job adds and task creations, with its refusals', async () => {
    const document = (await request(`${app.api}/openapi.json`)).body;
    for (const path of [
      '/c/{connectionId}/queues/{queueName}/jobs',
      '/c/{connectionId}/queues/{queueName}/purge',
      '/c/{connectionId}/jobs/retry',
    ]) {
      const operation = document.paths[path].post;
      expect(
        operation.parameters.find((parameter: { name: string }) => parameter.name === 'Idempotency-Key'),
      ).toMatchObject({ in: 'header', required: false });
      expect(JSON.stringify(operation.responses['422'])).toMatch(/IDEMPOTENCY_KEY_REUSED/);
    }
    const reads = document.paths['/c/{connectionId}/queues/{queueName}/jobs'].get;
    const parameter = (name: string) => reads.parameters.find((candidate: { name: string }) => candidate.name === name);
    expect([
      parameter('page').deprecated,
      parameter('pageSize').deprecated,
      parameter('limit').deprecated,
      parameter('cursor').deprecated,
    ]).toEqual([true, true, undefined, undefined]);
    expect(reads.description).toMatch(/Unlike the pagination convention/);
    expect(reads.parameters.some((parameter: { name: string }) => parameter.name === 'Idempotency-Key')).toBe(false);
  });
});
