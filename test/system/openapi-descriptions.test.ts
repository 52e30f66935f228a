import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strictBoolean } from '../../contracts/strict-boolean.js';
import { strictNumber } from '../../contracts/strict-number.js';
import { descriptionOf } from '../../server/http/openapi/parameter-descriptions.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';

type Schema = { $ref?: string; description?: string; properties?: Record<string, Schema>; oneOf?: Schema[] };
type Operation = {
  parameters?: Array<{ name: string; in: string; description?: string }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
};

describe('every request field is described in /api/openapi.json', () => {
  let app: TestApp;
  let document: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
  beforeAll(async () => {
    app = await bootApp();
    document = (await request(`${app.api}/openapi.json`)).body;
  });
  afterAll(() => app.close());

  const operations = () =>
    Object.entries(document.paths).flatMap(([route, methods]) =>
      Object.entries(methods).map(([method, operation]) => [`${method.toUpperCase()} ${route}`, operation] as const),
    );
  const resolved = (schema: Schema) =>
    schema.$ref ? document.components.schemas[schema.$ref.split('/').pop()!]! : schema;

  it('gives each path and query parameter a description of its own (not only inside its schema)', () => {
    const undescribed = operations().flatMap(([name, operation]) =>
      (operation.parameters ?? [])
        .filter((parameter) => !parameter.description?.trim())
        .map((parameter) => `${name} ${parameter.in} ${parameter.name}`),
    );
    expect(undescribed).toEqual([]);
    expect(operations().filter(([, operation]) => operation.parameters?.length).length).toBeGreaterThan(50);
  });

  it('describes each top-level field of every JSON body, in every alternative form', () => {
    const undescribed = operations().flatMap(([name, operation]) => {
      const body = operation.requestBody?.content['application/json']?.schema;
      if (!body) return [];
      const forms = resolved(body).oneOf ?? [resolved(body)];
      return forms.flatMap((form) =>
        Object.entries(resolved(form).properties ?? {})
          .filter(([, field]) => !resolved(field).description?.trim())
          .map(([field]) => `${name} ${field}`),
      );
    });
    expect(undescribed).toEqual([]);
  });

  it('keeps a description written after .optional() on a query parameter (the metrics flags, the queue list order)', () => {
    const parameter = (route: string, name: string) =>
      document.paths[route]!.get!.parameters!.find((candidate) => candidate.name === name)?.description;
    expect(parameter('/c/{connectionId}/metrics', 'detailed')).toMatch(/full native payload of every queue/);
    expect(parameter('/c/{connectionId}/metrics', 'includePrometheus')).toMatch(/Prometheus text export/);
    expect(parameter('/c/{connectionId}/queues/{queueName}/metrics', 'includePrometheus')).toMatch(
      /Prometheus text export/,
    );
    expect(parameter('/c/{connectionId}/queues', 'order')).toMatch(/^Sort direction/);
    expect(parameter('/c/{connectionId}/queues/{queueName}/events', 'prefix')).toMatch(
      /^BullMQ key prefix of the queue/,
    );
  });
});

describe("descriptionOf (a field's .describe() text through its wrappers)", () => {
  it.each([
    ['after .optional()', z.string().optional().describe('text')],
    ['before .optional()', z.string().describe('text').optional()],
    ['before .default()', z.number().describe('text').default(1)],
    ['on a strict number, then .optional()', strictNumber(z.number().int()).describe('text').optional()],
    ['on a strict boolean, then .optional()', strictBoolean().describe('text').optional()],
    ['inside z.stringbool() (a pipe), then .optional()', z.stringbool().describe('text').optional()],
  ])('finds it %s', (_placement, schema) => {
    expect(descriptionOf(schema)).toBe('text');
  });

  it('finds none when no layer is described', () => {
    expect(descriptionOf(z.string().optional().default('x'))).toBeUndefined();
  });
});
