import { errorResponsesOf } from './error-responses.js';

const toolCallExample = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'queues_get', arguments: { connectionId: 'local', queueName: 'emails' } },
};

const jsonRpcMessage = {
  type: 'object',
  additionalProperties: false,
  required: ['jsonrpc', 'method'],
  properties: {
    jsonrpc: { type: 'string', const: '2.0', description: 'Always `2.0`.' },
    id: {
      oneOf: [{ type: 'string' }, { type: 'integer' }],
      description: 'The request id the answer repeats; absent in a notification.',
    },
    method: {
      type: 'string',
      description:
        '`initialize`, `tools/list`, `tools/call`, `ping`, or a notification such as `notifications/initialized`.',
    },
    params: {
      type: 'object',
      description:
        "The method's parameters: for `tools/call`, `{ name, arguments }` (the tool's input is its procedure's strict input).",
    },
  },
};

/**
 * `POST /mcp` is the Model Context Protocol endpoint (server/mcp/): a JSON-RPC
 * channel, not a REST resource, so the document describes its envelope and
 * who may use it; the tools themselves are listed by `tools/list` and are the
 * REST operations of this document under other names (`queues_get` is `queues.get`).
 */
export const mcpOperation = {
  operationId: 'mcp',
  tags: ['mcp'],
  summary: 'Model Context Protocol for agents (Streamable HTTP, stateless, JSON answers)',
  description:
    'One JSON-RPC 2.0 message per request (`Accept: application/json, text/event-stream`); the answer is JSON. ' +
    "The tools are this API's procedures (`tools/list`), each under the same permission, organization scope, connection " +
    'protection, confirmations (`confirmName`), reasons (`Bullpen-Reason`) and rate limit as its REST route, audited with ' +
    'actor kind `agent`. Authentication: an API token only (a session cookie is not an agent); a token created with ' +
    '`scope: "read"` sees and calls read-only tools only. A page from another origin is refused (403). ' +
    'A refused tool call is a JSON-RPC result with `isError: true` and the REST error body as its text. GET and DELETE answer 405.',
  security: [{ bearerAuth: [] }],
  requestBody: {
    required: true,
    content: { 'application/json': { schema: jsonRpcMessage, example: toolCallExample } },
  },
  responses: {
    '200': {
      description: 'The JSON-RPC answer (a result, or an error object for a malformed message).',
      content: {
        'application/json': {
          schema: { type: 'object' },
          example: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '{"name":"emails"}' }] } },
        },
      },
    },
    '202': { description: 'A notification or response message was accepted; nothing to answer.' },
    ...errorResponsesOf({
      method: 'post',
      path: '/mcp',
      public: false,
      mutation: true,
      hasInput: true,
      meta: {},
      operation: {},
      errors: {
        UNAUTHORIZED: 'No API token (`Authorization: Bearer <token>`), or an unknown one',
        FORBIDDEN: 'A request from a page of another origin',
      },
    }),
  },
};
