import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { z } from 'zod';
import { errorBodySchema, errorStatusByCode } from '../../contracts/errors.js';
import { appRouter } from '../../routers/_app.js';
import { declaredSuccessStatuses } from './success-status.js';

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
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations as Record<string, { responses: Record<string, any> }>)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        const codes = errorCodesByStatus[Number(status)] ?? [];
        operation.responses[status] = {
          description: `${response.description}${codes.length ? ` (code: ${codes.join(', ')})` : ''}`,
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

/** The generator documents every success as 200: move it to the procedure's declared `successStatus`. */
function describeSuccessStatuses(document: OpenAPIObject): OpenAPIObject {
  for (const { method, path, status } of declaredSuccessStatuses(appRouter)) {
    const operations = document.paths?.[path ?? ''] as Record<string, { responses: Record<string, unknown> }> | undefined;
    const operation = operations?.[method?.toLowerCase() ?? ''];
    if (!operation?.responses['200']) continue;
    operation.responses[String(status)] = operation.responses['200'];
    delete operation.responses['200'];
  }
  return document;
}

/** The OpenAPI 3.1 description of every REST route, generated from the procedures. */
export function buildOpenApiDocument(version: string): OpenAPIObject {
  const generated = generateOpenApiDocument(appRouter, {
    title: 'Bullpen API',
    description:
      'Administer BullMQ queues across Redis stores. Every error answers `{ message, code }` ' +
      'plus route-specific fields; `code` is machine-readable (e.g. VALIDATION_FAILED, STORE_UNAVAILABLE).',
    version,
    baseUrl: apiBasePath,
  });
  return describeQueueEventsStream(describeErrorResponses(describeSuccessStatuses(generated)));
}
