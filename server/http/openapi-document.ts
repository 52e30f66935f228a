import type { AnyRouter } from '@trpc/server';
import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { z } from 'zod';
import { errorBodySchema, errorStatusByCode } from '../../contracts/errors.js';
import { appRouter } from '../../routers/_app.js';
import type { ProcedureMeta } from '../trpc/init.js';
import { applySuccessStatuses } from './success-status.js';

export const apiBasePath = '/api';

const errorCodesByStatus = Object.entries(errorStatusByCode).reduce<Record<number, string[]>>((table, [code, status]) => {
  (table[status] ??= []).push(code);
  return table;
}, {});

function errorBodyJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(errorBodySchema, { target: 'openapi-3.0', io: 'output' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/**
 * Each procedure's own `errorResponses` texts, by `method path`: trpc-to-openapi
 * caches one error response per status, so every route would otherwise show the
 * first route's text (purge's 409 read "Name already used").
 */
function declaredErrorDescriptions(router: AnyRouter): Map<string, Record<string, string>> {
  const table = new Map<string, Record<string, string>>();
  for (const procedure of Object.values(router._def.procedures as Record<string, { _def: { meta?: ProcedureMeta } }>)) {
    const openapi = procedure._def.meta?.openapi;
    if (openapi?.errorResponses && !Array.isArray(openapi.errorResponses)) {
      table.set(`${openapi.method.toLowerCase()} ${openapi.path}`, openapi.errorResponses as Record<string, string>);
    }
  }
  return table;
}

/**
 * trpc-to-openapi describes errors with its own body (`code` = tRPC code).
 * Ours is `{ message, code, ...details }` with the codes of `errorStatusByCode`:
 * point every error response at that schema and list the codes each status carries.
 */
function describeErrorResponses(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components ??= {}).schemas ?? {};
  for (const name of Object.keys(schemas)) if (name.startsWith('error.')) delete schemas[name];
  schemas.Error = errorBodyJsonSchema();
  document.components.schemas = schemas;
  const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
  const declared = declaredErrorDescriptions(appRouter);
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations as Record<string, { responses: Record<string, any> }>)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        const codes = errorCodesByStatus[Number(status)] ?? [];
        const description = declared.get(`${method} ${path}`)?.[status] ?? response.description;
        operation.responses[status] = {
          description: `${description}${codes.length ? ` (code: ${codes.join(', ')})` : ''}`,
          content: errorContent,
        };
      }
      operation.responses.default ??= { description: 'Error', content: errorContent };
    }
  }
  return document;
}

/** The SSE route is plain express (the REST adapter cannot stream), so describe it by hand. */
function describeQueueEventsStream(document: OpenAPIObject): OpenAPIObject {
  const pathParam = (name: string, description: string) => ({ name, in: 'path' as const, required: true, schema: { type: 'string' as const }, description });
  const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
  document.paths ??= {};
  document.paths['/c/{connectionId}/queues/{queueName}/events'] = {
    get: {
      operationId: 'queues-events',
      tags: ['events'],
      summary: 'Live queue events (Server-Sent Events)',
      description:
        'A text/event-stream of the queue\'s BullMQ events: `event:` is the type (added, waiting, active, progress, ' +
        'completed, failed, delayed, stalled, removed, paused, resumed), `data:` a JSON object with `type, queueName, id, ' +
        'jobId?, state?, prev?, failedReason?, progress?, delay?` (and `returnvalue` with includeData=true), `id:` the ' +
        'stream id. Comment lines are heartbeats. Events start from the moment of subscription.',
      parameters: [
        pathParam('connectionId', 'Connection id.'),
        pathParam('queueName', 'Queue name, percent-encoded.'),
        { name: 'prefix', in: 'query' as const, required: false, schema: { type: 'string' }, description: "BullMQ prefix; the connection's first by default." },
        { name: 'includeData', in: 'query' as const, required: false, schema: { type: 'string', enum: ['true', 'false', '1', '0'] }, description: 'Include return values of completed jobs.' },
      ],
      responses: {
        '200': { description: 'The event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
        '400': { description: 'Invalid query (code: VALIDATION_FAILED)', content: errorContent },
        '401': { description: 'Not signed in (code: UNAUTHORIZED)', content: errorContent },
        '403': { description: 'Not allowed (code: FORBIDDEN)', content: errorContent },
        '404': { description: 'No such connection (code: NOT_FOUND)', content: errorContent },
        '503': { description: 'The store is unavailable (code: STORE_UNAVAILABLE)', content: errorContent },
        default: { description: 'Error', content: errorContent },
      },
    },
  };
  return document;
}

/** The OpenAPI 3.1 description of every REST route, generated from the procedures. */
export function buildOpenApiDocument(version: string): OpenAPIObject {
  const document = describeQueueEventsStream(describeErrorResponses(
    generateOpenApiDocument(appRouter, {
      title: 'Bullpen API',
      description:
        'Administer BullMQ queues across Redis stores. Every error answers `{ message, code }` ' +
        'plus route-specific fields; `code` is machine-readable (e.g. VALIDATION_FAILED, STORE_UNAVAILABLE).',
      version,
      baseUrl: apiBasePath,
    }),
  ));
  return applySuccessStatuses(document, appRouter);
}
