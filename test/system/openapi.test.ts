import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, request, type TestApp } from '../helpers/app.js';

describe('OpenAPI document and docs page', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp();
  });
  afterAll(() => app.close());

  it('serves an OpenAPI 3.1 document that a third-party validator accepts', async () => {
    const { status, body } = await request(`${app.api}/openapi.json`);
    expect(status).toBe(200);
    expect(body.openapi).toMatch(/^3\.1\./);
    await expect(SwaggerParser.validate(structuredClone(body))).resolves.toBeTruthy();
  });

  it('describes every REST route with a response schema and the error body', async () => {
    const { body } = await request(`${app.api}/openapi.json`);
    for (const [route, operations] of Object.entries<Record<string, any>>(body.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        expect(operation.responses['200'] ?? operation.responses['201'], `${method} ${route}`).toBeDefined();
        const errorSchema = operation.responses.default?.content?.['application/json']?.schema
          ?? Object.entries<any>(operation.responses).find(([code]) => code.startsWith('4') || code.startsWith('5'))?.[1];
        expect(errorSchema, `${method} ${route} error response`).toBeDefined();
      }
    }
    expect(Object.keys(body.paths)).toEqual(expect.arrayContaining(['/health', '/mode', '/app/config', '/session']));
  });

  it('serves the API reference page without any CDN', async () => {
    const { status, body } = await request(`${app.api}/docs/`);
    expect(status).toBe(200);
    expect(body).toContain('swagger-ui');
    const scriptSources = [...String(body).matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(scriptSources.length).toBeGreaterThan(0);
    for (const source of scriptSources) expect(source).not.toMatch(/^https?:\/\//);
    const bundle = await fetch(new URL(scriptSources.find((s) => s.endsWith('.js'))!, `${app.api}/docs/`));
    expect(bundle.status).toBe(200);
  });
});
