import { queuePrefixField } from '../../../contracts/params.js';
import { errorResponsesOf } from './error-responses.js';
import type { OperationFacts } from './operations.js';
import { descriptionOf } from './parameter-descriptions.js';
import { securityOf } from './security.js';

/**
 * The express routes that are not procedures (the REST adapter answers
 * JSON only), described by hand. They pass the procedures' guards
 * (server/http/plain-route.ts), rate limit included, so they give the same errors.
 */
function plainErrorResponses(facts: Omit<OperationFacts, 'operation' | 'meta'>) {
  return errorResponsesOf({ ...facts, meta: {}, operation: {} });
}

const pathParam = (name: string, description: string, example: string) => ({
  name,
  in: 'path' as const,
  required: true,
  schema: { type: 'string' },
  description,
  example,
});

const queueEventsOperation = {
  operationId: 'queues-events',
  tags: ['events'],
  summary: 'Live queue events (Server-Sent Events)',
  description:
    "A `text/event-stream` of the queue's BullMQ events, from the moment of subscription. Each event has `event:` its type " +
    '(added, waiting, active, progress, completed, failed, delayed, stalled, removed, paused, resumed), `id:` the stream id ' +
    'and `data:` a JSON object `{ type, queueName, id, jobId?, state?, prev?, failedReason?, progress?, delay? }` ' +
    '(plus `returnvalue` with `includeData=true`). Comment lines (`:`) are heartbeats. Permission `jobs.read`.',
  security: securityOf({ public: false, meta: {} }),
  parameters: [
    pathParam('connectionId', 'Connection id.', 'local'),
    pathParam('queueName', 'Queue name, percent-encoded.', 'emails'),
    {
      name: 'prefix',
      in: 'query',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 200 },
      description: descriptionOf(queuePrefixField),
    },
    {
      name: 'includeData',
      in: 'query',
      required: false,
      schema: { type: 'boolean' },
      description: 'Include return values of completed jobs (`true`/`false`, also `1`/`0`).',
    },
  ],
  responses: {
    '200': {
      description: 'The event stream; it stays open until the client leaves.',
      content: {
        'text/event-stream': {
          schema: { type: 'string' },
          example:
            'id: 1700000000000-0\nevent: completed\ndata: {"type":"completed","queueName":"emails","id":"1700000000000-0","jobId":"1"}\n\n',
        },
      },
    },
    ...plainErrorResponses({
      method: 'get',
      path: '/c/{connectionId}/queues/{queueName}/events',
      public: false,
      mutation: false,
      hasInput: true,
      errors: {},
    }),
  },
};

const prometheusOperation = {
  operationId: 'metrics-prometheus',
  tags: ['metrics'],
  summary: 'Prometheus exposition of queue and HTTP metrics',
  description:
    "Prometheus text format (0.0.4): BullMQ's own export per queue of every connection of the caller's organization " +
    '(`bullmq_job_count{queue, state, connection, prefix}`), `bullpen_store_up{connection}` per store, and the HTTP ' +
    'request metrics of this service. ' +
    'Needs permission `metrics.read` unless SERVICE_METRICS_PUBLIC=true, when anonymous scrapes see the local organization.',
  security: [...securityOf({ public: false, meta: {} }), {}],
  responses: {
    '200': {
      description: 'The exposition.',
      content: {
        'text/plain': {
          schema: { type: 'string' },
          example:
            '# TYPE bullmq_job_count gauge\nbullmq_job_count{queue="emails",state="waiting",connection="local",prefix="bull"} 3\n',
        },
      },
    },
    ...plainErrorResponses({
      method: 'get',
      path: '/prometheus',
      public: false,
      mutation: false,
      hasInput: false,
      errors: {},
    }),
  },
};

const auditTime = (name: string, description: string) => ({
  name,
  in: 'query',
  required: false,
  schema: { type: 'string' },
  description,
});

const auditExportOperation = {
  operationId: 'audit-export',
  tags: ['audit'],
  summary: "Export the active organization's audit trail as NDJSON; admins and owners",
  description:
    'One audit event (the shape of `GET /audit` events) per line, oldest first, streamed. The export is itself audited. Permission `audit.read`.',
  security: securityOf({ public: false, meta: {} }),
  parameters: [
    auditTime('from', 'Earliest event time (inclusive): a date (midnight UTC) or an ISO 8601 date-time.'),
    auditTime('to', 'Latest event time (exclusive): a date (midnight UTC) or an ISO 8601 date-time.'),
  ],
  responses: {
    '200': {
      description: 'The events, one JSON object per line.',
      content: {
        'application/x-ndjson': {
          schema: { type: 'string' },
          example: '{"id":"…","action":"queues.purge","createdAt":"2026-01-01T00:00:00.000Z"}\n',
        },
      },
    },
    ...plainErrorResponses({
      method: 'get',
      path: '/audit/export',
      public: false,
      mutation: false,
      hasInput: true,
      errors: {},
    }),
  },
};

export const plainRoutePaths = {
  '/audit/export': { get: auditExportOperation },
  '/c/{connectionId}/queues/{queueName}/events': { get: queueEventsOperation },
  '/prometheus': { get: prometheusOperation },
};
