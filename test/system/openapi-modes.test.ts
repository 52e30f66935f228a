import { readFile } from 'node:fs/promises';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { repoRoot } from '../helpers/process.js';
import { storeFixture } from '../helpers/stores.js';
import { operationsOf } from './support/openapi-document.js';

/** Every object schema's properties in the document, with where they sit, however deeply nested. */
function propertiesOf(node: unknown, at = '#'): Array<[string, string, Record<string, any>]> {
  if (!node || typeof node !== 'object') return [];
  const found: Array<[string, string, Record<string, any>]> = [];
  const properties = (node as { properties?: Record<string, Record<string, any>> }).properties;
  if (properties && typeof properties === 'object')
    for (const [name, schema] of Object.entries(properties)) found.push([`${at}/${name}`, name, schema]);
  for (const [key, value] of Object.entries(node)) found.push(...propertiesOf(value, `${at}/${key}`));
  return found;
}

/** A nullable field is `anyOf: [schema, null]`: the schema that is not null. */
const nonNull = (schema: Record<string, any>) =>
  schema.anyOf?.find((option: { type?: string }) => option.type !== 'null') ?? schema;

describe('the OpenAPI document in authless mode (issue 35)', () => {
  const store = storeFixture();
  let app: TestApp;
  let document: any;
  beforeAll(async () => {
    app = await bootApp({ env: store.env });
    document = (await request(`${app.api}/openapi.json`)).body;
  });
  afterAll(async () => {
    await app.close();
    await store.cleanup();
  });

  it('asks no operation for credentials: no security schemes, no requirement, no 401', async () => {
    expect(document.components.securitySchemes).toBeUndefined();
    expect(document.components.responses.Unauthorized).toBeUndefined();
    expect(document.security).toBeUndefined();
    for (const [name, operation] of operationsOf(document)) {
      expect(operation.security, name).toEqual([]);
      expect(operation.responses['401'], name).toBeUndefined();
    }
    expect(document.info.description).toContain('authless mode');
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeTruthy();
  });

  it('shows no Authorize button on /api/docs: the page is given no security scheme', async () => {
    const html = await request(`${app.api}/docs/`);
    expect(html.status).toBe(200);
    const init = await request(`${app.api}/docs/swagger-ui-init.js`);
    expect(init.status).toBe(200);
    expect(init.body).toContain('"openapi"');
    expect(init.body).not.toContain('securitySchemes');
    expect(init.body).not.toContain('bearerAuth');
  });

  it('answers a route the document lists without credentials, as it says', async () => {
    const queues = await request(`${app.api}/c/main/queues`);
    expect(queues.status).toBe(200);
  });
});

describe('the OpenAPI document of an authenticated instance', () => {
  let withBase: TestApp;
  let withoutBase: TestApp;
  beforeAll(async () => {
    [withBase, withoutBase] = await Promise.all([
      bootApp({ env: { APP_BASE_URL: 'https://bullpen.example.com/' } }),
      bootApp(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([withBase.close(), withoutBase.close()]);
  });

  it('names an absolute server: APP_BASE_URL, or a template whose defaults are where it listens', async () => {
    const absolute = (await request(`${withBase.api}/openapi.json`)).body;
    expect(absolute.servers).toEqual([{ url: 'https://bullpen.example.com/api', description: 'APP_BASE_URL' }]);
    const templated = (await request(`${withoutBase.api}/openapi.json`)).body;
    expect(templated.servers).toHaveLength(1);
    const [server] = templated.servers;
    expect(server.url).toBe('{scheme}://{host}/api');
    expect(server.variables).toEqual({
      scheme: { default: 'http', enum: ['http', 'https'] },
      host: { default: `localhost:${new URL(withoutBase.url).port}` },
    });
    expect(templated.components.securitySchemes).toHaveProperty('bearerAuth');
  });

  it('types yes/no query parameters as booleans, and reads true/false/1/0 (anything else is a 400)', async () => {
    const document = (await request(`${withoutBase.api}/openapi.json`)).body;
    const parameter = (route: string, name: string) =>
      document.paths[route].get.parameters.find((p: { name: string }) => p.name === name);
    for (const [route, name] of [
      ['/c/{connectionId}/queues', 'totals'],
      ['/c/{connectionId}/queues/{queueName}/metrics', 'includePrometheus'],
      ['/c/{connectionId}/metrics', 'detailed'],
      ['/c/{connectionId}/metrics', 'includePrometheus'],
      ['/c/{connectionId}/store-keys/search', 'excludeQueueKeys'],
      ['/c/{connectionId}/queues/{queueName}/events', 'includeData'],
    ] as const) {
      expect(parameter(route, name)?.schema.type, `${route} ${name}`).toBe('boolean');
    }
    // No query parameter anywhere spells a boolean as text.
    for (const [name, operation] of operationsOf(document)) {
      for (const param of operation.parameters ?? []) {
        expect(param.schema.enum?.includes('true') ?? false, `${name} ${param.name}`).toBe(false);
      }
    }
  });

  it('documents job times as epoch milliseconds and ISO instants as date-time', async () => {
    const document = (await request(`${withoutBase.api}/openapi.json`)).body;
    const properties = propertiesOf(document.components.schemas).concat(propertiesOf(document.paths));
    const jobTimes = properties.filter(([, name]) =>
      ['timestamp', 'processedOn', 'finishedOn', 'firstSeen', 'lastSeen'].includes(name),
    );
    expect(jobTimes.length).toBeGreaterThan(5);
    for (const [where, , schema] of jobTimes)
      expect(schema.description ?? nonNull(schema).description, where).toMatch(/Epoch milliseconds/);
    const isoTimes = properties.filter(
      ([, name, schema]) => /(At|^at)$/.test(name) && nonNull(schema).type === 'string',
    );
    expect(isoTimes.length).toBeGreaterThan(20);
    for (const [where, , schema] of isoTimes) expect(nonNull(schema).format, where).toBe('date-time');
  });

  it('states one licence, the one package.json and the client package state', async () => {
    const document = (await request(`${withoutBase.api}/openapi.json`)).body;
    const service = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8'));
    const client = JSON.parse(await readFile(path.join(repoRoot, 'client/package.json'), 'utf8'));
    expect([document.info.license.identifier, service.license, client.license]).toEqual(['MIT', 'MIT', 'MIT']);
  });
});

describe('boolean query parameters at run time', () => {
  const store = storeFixture();
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp({ env: { ...store.env, SERVICE_QUEUE_LIST_CACHE_MS: '0' } });
  });
  afterAll(async () => {
    await app.close();
    await store.cleanup();
  });

  it.each([
    ['true', true],
    ['1', true],
    ['false', false],
    ['0', false],
  ])('totals=%s', async (text, present) => {
    const { status, body } = await request(`${app.api}/c/main/queues?totals=${text}`);
    expect(status).toBe(200);
    expect('totals' in body).toBe(present);
  });

  it('refuses any other spelling with 400 naming the parameter and what it takes', async () => {
    const { status, body } = await request(`${app.api}/c/main/queues?totals=yes`);
    expect(status).toBe(400);
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(body)).toContain('totals');
    expect(JSON.stringify(body)).toContain('expected true, false, 1 or 0');
  });

  it('takes a JSON boolean from the typed client', async () => {
    const list = await app.trpc.queues.list.query({ connectionId: 'main', totals: true });
    expect(list.totals).toBeDefined();
  });
});
