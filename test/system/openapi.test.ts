import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { errorResponsesOf } from '../../server/http/openapi/error-responses.js';
import { request } from '../helpers/app.js';
import { repoRoot } from '../helpers/process.js';
import {
  app,
  bin,
  document,
  lintEnv,
  operationsOf,
  run,
  useOpenApiDocument,
  workDir,
} from './support/openapi-document.js';

describe('OpenAPI document and docs page', () => {
  useOpenApiDocument();

  it('serves an OpenAPI 3.1 document that a third-party validator accepts', async () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeTruthy();
  });

  it('passes redocly (recommended) and spectral (spectral:oas) with no error and no warning', async () => {
    const file = path.join(workDir, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    const redocly = await run(
      bin('redocly'),
      ['lint', file, '--config', path.join(repoRoot, 'test/system/lint/redocly.yaml'), '--format=json'],
      { cwd: workDir, env: lintEnv },
    ).catch((failure: { stdout: string }) => failure);
    const totals = JSON.parse(redocly.stdout).totals;
    expect(totals, redocly.stdout.slice(0, 4000)).toMatchObject({ errors: 0, warnings: 0 });
    const spectral = await run(
      bin('spectral'),
      ['lint', file, '--ruleset', path.join(repoRoot, 'test/system/lint/spectral.yaml'), '--format=json', '--quiet'],
      { cwd: workDir, env: lintEnv },
    ).catch((failure: { stdout: string }) => failure);
    const problems = JSON.parse(spectral.stdout || '[]') as Array<{ code: string; path: string[]; severity: number }>;
    // Severity 0 = error, 1 = warning.
    expect(problems.filter((problem) => problem.severity <= 1)).toEqual([]);
  }, 120_000);

  it('says who may call each operation: public routes none, session-only routes the cookie, the rest a token or the cookie', () => {
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['bearerAuth', 'cookieAuth']);
    expect(document.components.securitySchemes.cookieAuth).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'bullpen_session',
    });
    expect(document.components.securitySchemes.cookieAuth.description).toMatch(/Origin/);
    const security = Object.fromEntries(operationsOf(document).map(([name, operation]) => [name, operation.security]));
    for (const name of [
      'GET /health',
      'GET /mode',
      'GET /app/config',
      'GET /session',
      'GET /auth/get-session',
      'POST /auth/sign-up/email',
      'POST /auth/sign-in/email',
      'POST /auth/sign-out',
      'GET /invitations/{token}',
      'POST /auth/reset-password',
    ]) {
      expect(security[name], name).toEqual([]);
    }
    for (const name of [
      'POST /auth/tokens',
      'GET /auth/tokens',
      'DELETE /auth/tokens/{id}',
      'POST /auth/organization/set-active',
      'POST /organizations',
      'POST /auth/change-password',
      'POST /invitations/{token}/accept',
      'GET /auth/identities',
      'DELETE /auth/identities/{provider}',
      'GET /auth/link/{provider}',
    ]) {
      expect(security[name], name).toEqual([{ cookieAuth: [] }]);
    }
    expect(security['GET /c/{connectionId}/queues/{queueName}/events']).toEqual([
      { bearerAuth: [] },
      { cookieAuth: [] },
    ]);
    expect(security['POST /c/{connectionId}/queues/{queueName}/purge']).toEqual([
      { bearerAuth: [] },
      { cookieAuth: [] },
    ]);
    for (const [name, operation] of operationsOf(document)) expect(operation.security, name).toBeDefined();
  });

  it('lists the errors of each route with their codes, shared ones as components.responses', () => {
    expect(Object.keys(document.components.responses).sort()).toEqual([
      'Forbidden',
      'InternalError',
      'PayloadTooLarge',
      'RateLimited',
      'ServiceUnavailable',
      'Unauthorized',
      'UnsupportedMediaType',
    ]);
    for (const [name, operation] of operationsOf(document)) {
      const redirect = [
        'GET /auth/sign-in/{provider}',
        'GET /auth/callback/{provider}',
        'GET /auth/link/{provider}',
      ].some((route) => name.startsWith(route));
      const successes = Object.keys(operation.responses).filter((status) => status.startsWith(redirect ? '3' : '2'));
      expect(successes.length, `${name} success`).toBeGreaterThan(0);
      expect(operation.responses.default, name).toBeUndefined();
      expect(operation.responses['500'], name).toBeDefined();
      if (operation.security.length > 0) expect(operation.responses['401'], name).toBeDefined();
    }
    const pause = document.paths['/c/{connectionId}/queues/{queueName}/pause'].post.responses;
    expect(pause['415']).toEqual({ $ref: '#/components/responses/UnsupportedMediaType' });
    const notFound = pause['404'].content['application/json'].schema.allOf[1];
    expect(notFound.properties.code.enum).toEqual(['NOT_FOUND']);
    const deleteKey403 = document.paths['/c/{connectionId}/store-keys/{key}'].delete.responses['403'];
    expect(deleteKey403.content['application/json'].schema.allOf[1].properties.code.enum.sort()).toEqual([
      'CONNECTION_PROTECTED',
      'FORBIDDEN',
      'RESERVED_KEY',
    ]);
    // A connection's protection refuses writes and destructive actions, never reads (contracts/permissions.ts says which is which).
    expect(pause['403'].description).toContain('`CONNECTION_PROTECTED`: The connection is read-only');
    expect(deleteKey403.description).toContain("`confirm` and `confirmName` is not the connection's name");
    expect(document.paths['/c/{connectionId}/queues/{queueName}/clean'].post.responses['403'].description).toContain(
      '`confirmName` is not the queue name',
    );
    expect(document.paths['/c/{connectionId}/queues/{queueName}'].get.responses['403']).toEqual({
      $ref: '#/components/responses/Forbidden',
    });
  });

  it('turns one line of meta.errors into the status, the code enum and the description', () => {
    const facts = {
      method: 'post',
      path: '/c/{connectionId}/queues/{queueName}/clean',
      public: false,
      mutation: true,
      hasInput: true,
      meta: {},
      operation: {},
    };
    const without = errorResponsesOf({ ...facts, errors: {} });
    const withConflict = errorResponsesOf({ ...facts, errors: { CONFLICT: 'Someone else is cleaning' } });
    expect(without['409']).toBeUndefined();
    expect(withConflict['409']).toMatchObject({ description: '`CONFLICT`: Someone else is cleaning' });
    expect((withConflict['409'] as any).content['application/json'].schema.allOf[1].properties.code.enum).toEqual([
      'CONFLICT',
    ]);
    const publicRead = errorResponsesOf({
      ...facts,
      method: 'get',
      path: '/health',
      public: true,
      mutation: false,
      hasInput: false,
      errors: {},
    });
    expect(Object.keys(publicRead)).toEqual(['429', '500', '503']);
  });

  it('a route that creates its queue (meta.queue) may refuse its name and never 404s for it; async-capable routes list 202; plain routes are rate limited', () => {
    const codesOf = (response: any) => response.content['application/json'].schema.allOf[1].properties.code.enum;
    for (const [path, method] of [
      ['/c/{connectionId}/queues/{queueName}/jobs', 'post'],
      ['/c/{connectionId}/scheduled-jobs/queue/{queueName}', 'post'],
    ] as const) {
      const responses = document.paths[path][method].responses;
      expect(codesOf(responses['400']), path).toContain('UNSUPPORTED_QUEUE_NAME');
      expect(responses['404'].description, path).toBe('`NOT_FOUND`: No such connection');
    }
    const clean = document.paths['/c/{connectionId}/queues/{queueName}/clean'].post.responses;
    expect(codesOf(clean['400'])).not.toContain('UNSUPPORTED_QUEUE_NAME');
    expect(clean['404'].description).toBe('`NOT_FOUND`: No such connection or queue');
    for (const [path, method] of [
      ['/c/{connectionId}/queues/{queueName}/purge', 'post'],
      ['/c/{connectionId}/queues/{queueName}/jobs/retry', 'post'],
      ['/c/{connectionId}/jobs/remove', 'post'],
    ] as const) {
      const responses = document.paths[path][method].responses;
      expect(responses['202'].content, path).toEqual(responses['200'].content);
      expect(responses['202'].content['application/json'], path).toBeDefined();
    }
    expect(document.paths['/c/{connectionId}/queues/{queueName}/jobs/invoke'].post.responses['202']).toBeUndefined();
    for (const path of ['/c/{connectionId}/queues/{queueName}/events', '/prometheus']) {
      expect(document.paths[path].get.responses['429'], path).toEqual({ $ref: '#/components/responses/RateLimited' });
    }
  });

  it('names the resource schemas, none `Error` and none auto-named', () => {
    const names = Object.keys(document.components.schemas);
    expect(names).toEqual(
      expect.arrayContaining([
        'Connection',
        'Queue',
        'QueueCounts',
        'JobSummary',
        'JobDetail',
        'JobTreeNode',
        'Scheduler',
        'Worker',
        'AuditEvent',
        'ErrorBody',
      ]),
    );
    expect(names).not.toContain('Error');
    expect(names.filter((name) => name.startsWith('__') || name.startsWith('error.'))).toEqual([]);
  });

  it('describes every operation; bodies are optional unless a field is required, with an example, alternatives as oneOf', () => {
    for (const [name, operation] of operationsOf(document)) {
      expect(operation.description, name).toBeTruthy();
      const body = operation.requestBody;
      if (!body) continue;
      const media = body.content['application/json'];
      expect(media.example, `${name} example`).toBeDefined();
      const requires = media.schema.oneOf !== undefined || (media.schema.required ?? []).length > 0;
      expect(body.required, name).toBe(requires);
    }
    const pause = document.paths['/c/{connectionId}/queues/{queueName}/pause'].post;
    expect(pause.requestBody.required).toBe(false);
    expect(pause.requestBody.content['application/json'].example).toEqual({});
    const retry =
      document.paths['/c/{connectionId}/queues/{queueName}/jobs/retry'].post.requestBody.content['application/json']
        .schema;
    expect(retry.oneOf.map((form: { required: string[] }) => form.required)).toEqual([
      ['jobIds'],
      ['status', 'all'],
      ['query'],
    ]);
    const queryForm = retry.oneOf[2].properties;
    expect(Object.keys(queryForm)).toEqual(
      expect.arrayContaining(['query', 'dryRun', 'cursor', 'limit', 'async', 'maxPerSecond']),
    );
    expect(retry.oneOf[0].properties.query).toBeUndefined();
    // A list of enum values also takes one value alone (contracts/one-or-list.ts): an array form and a single form.
    const [inList, inOne] = queryForm.query.properties.in.anyOf;
    expect([inList.items.enum, inOne.enum]).toEqual([
      ['id', 'name', 'data', 'failedReason'],
      ['id', 'name', 'data', 'failedReason'],
    ]);
    expect(queryForm.query.properties.status.anyOf.map((form: any) => form.items?.enum ?? form.enum)).toEqual([
      ['failed', 'completed'],
      ['failed', 'completed'],
    ]);
    const test = document.paths['/connections/test'].post.requestBody.content['application/json'].schema;
    expect(test.oneOf.map((form: { required: string[] }) => form.required)).toEqual([['id'], ['url']]);
    expect(document.paths['/prometheus'].get.responses['200'].content['text/plain']).toBeDefined();
    expect(
      document.paths['/c/{connectionId}/queues/{queueName}/events'].get.responses['200'].content['text/event-stream'],
    ).toBeDefined();
  });

  it('describes the MCP endpoint: POST only, a bearer token only, its JSON-RPC envelope and refusals', () => {
    const mcp = document.paths['/mcp'];
    expect(Object.keys(mcp)).toEqual(['post']);
    expect(mcp.post.security).toEqual([{ bearerAuth: [] }]);
    expect(mcp.post.requestBody.content['application/json'].example).toMatchObject({
      jsonrpc: '2.0',
      method: 'tools/call',
    });
    const codesOf = (response: any) => response.content['application/json'].schema.allOf[1].properties.code.enum;
    expect(codesOf(mcp.post.responses['401'])).toEqual(['UNAUTHORIZED']);
    expect(codesOf(mcp.post.responses['403'])).toEqual(['FORBIDDEN']);
    expect(mcp.post.responses['429']).toEqual({ $ref: '#/components/responses/RateLimited' });
    expect(document.tags.map((tag: { name: string }) => tag.name)).toContain('mcp');
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
