import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { appRouter } from '../../routers/_app.js';
import { errorResponsesOf, sharedErrorComponents } from './openapi/error-responses.js';
import { operationsOf, type OperationFacts } from './openapi/operations.js';
import { describeParameters } from './openapi/parameter-descriptions.js';
import { mcpOperation } from './openapi/mcp-operation.js';
import { plainRoutePaths } from './openapi/plain-routes.js';
import { describeRequestBody } from './openapi/request-bodies.js';
import { addReasonHeader } from './openapi/reason-header.js';
import { documentConventions } from './openapi/conventions.js';
import { csrfRule, securityOf, securitySchemes } from './openapi/security.js';
import { defaultDocumentMode, serversFor, withoutCredentials, type DocumentMode } from './openapi/document-mode.js';
import { oauthPaths } from './openapi-oauth-paths.js';
import { applySuccessStatuses } from './success-status.js';
import { apiBasePath } from './api-base-path.js';

export { apiBasePath };

const tags = {
  system: 'Health, mode and the configuration the web app needs.',
  auth: 'Sign-up, sign-in, sessions and API tokens.',
  organizations: 'Organizations and their members.',
  invitations:
    'Invitations into an organization: created by owners and admins, previewed by link, used at sign-up or accepted signed in.',
  connections: 'Redis connections (saved or from the environment).',
  queues: 'Queues of a connection: counts, pause, clean, purge, delete.',
  jobs: 'Jobs of a queue: list, search, detail, add and bulk actions.',
  events: 'Live queue events.',
  schedulers: 'Job schedulers (repeatable jobs).',
  workers: 'Workers connected to a store.',
  metrics: 'Queue and connection metrics, and the Prometheus exposition.',
  'store-keys': 'Raw Redis keys of a connection.',
  audit: 'The audit log of changes.',
  history: 'Sampled history of queue and connection figures.',
  alerts: 'Alert rules per connection, their events, and the destinations they notify.',
  tasks: 'Background tasks (async bulk actions and purges): progress and cancelling.',
  mcp: 'The Model Context Protocol endpoint for agents: the procedures as tools, under the same rules.',
  definitions:
    "Export and import of an organization's definitions (connections, protection, queue settings, schedulers, alerting) as one document, secrets named, not held.",
};

const authentication = {
  required: `Authentication: a bearer API token or the \`bullpen_session\` cookie (see the security schemes). CSRF: ${csrfRule}`,
  authless:
    'Authentication: none. This instance runs in authless mode (SERVICE_AUTHLESS, trusted networks only): every route answers without credentials, and the account routes answer 400 `AUTHLESS_MODE`.',
};

const apiDescription = (mode: DocumentMode) =>
  'Administer BullMQ queues across Redis stores.\n\n' +
  'Errors answer `{ message, code }` plus route-specific fields; each response lists the `code` values it carries. ' +
  `${mode.authless ? authentication.authless : authentication.required}\n\n` +
  'Job times (`timestamp`, `processedOn`, `finishedOn` and the like) are epoch milliseconds; other instants are ISO 8601 text (`format: date-time`).\n\n' +
  'A POST, PUT, PATCH or DELETE without a body is the empty object; a non-empty body must be `application/json`.';

/** `async: true` on a route that may run as a background task answers 202, the same body with its `taskId` (server/http/success-status.ts). */
function addTaskAccepted(responses: Record<string, { description?: string; content?: unknown }>): void {
  responses['202'] = {
    description:
      'Accepted: the action runs as a background task (`async: true`); `taskId` names it (follow it at `GET /c/{connectionId}/tasks/{taskId}`), the counts are zero.',
    content: responses['200']?.content,
  };
}

/** Security, errors, bodies and a description for one generated operation. */
function completeOperation(facts: OperationFacts): void {
  const { operation, meta } = facts;
  operation.description ??= meta.openapi?.summary;
  operation.security = securityOf(facts);
  for (const status of Object.keys(operation.responses))
    if (Number(status) >= 400 || status === 'default') delete operation.responses[status];
  Object.assign(operation.responses, errorResponsesOf(facts));
  describeParameters(facts);
  addReasonHeader(facts);
  describeRequestBody(facts);
  if (meta.runsAsTask) addTaskAccepted(operation.responses);
  documentConventions(facts);
}

/**
 * The OpenAPI 3.1 description of every REST route, generated from the
 * procedures, as true for this instance: its address, and in authless mode
 * no credentials asked anywhere.
 */
export function buildOpenApiDocument(version: string, mode: DocumentMode = defaultDocumentMode): OpenAPIObject {
  const document = generateOpenApiDocument(appRouter, {
    title: 'Bullpen API',
    description: apiDescription(mode),
    version,
    baseUrl: apiBasePath,
    // The project's licence, as package.json and client/package.json say.
    license: { name: 'MIT', identifier: 'MIT' },
    contact: { name: 'Bullpen maintainers' },
    securitySchemes,
  });
  for (const facts of operationsOf(appRouter, document)) completeOperation(facts);
  document.paths ??= {};
  // Copies: the authless mode rewrites operations in place, and these module-level ones outlive this document.
  Object.assign(
    document.paths,
    structuredClone({ ...plainRoutePaths, ...oauthPaths(), '/mcp': { post: mcpOperation } }),
  );
  document.components ??= {};
  const components = document.components;
  const { responses, errorBody } = sharedErrorComponents();
  components.schemas = { ...components.schemas, ErrorBody: errorBody };
  for (const name of Object.keys(components.schemas)) if (name.startsWith('error.')) delete components.schemas[name];
  components.responses = responses;
  document.tags = Object.entries(tags).map(([name, description]) => ({ name, description }));
  document.servers = serversFor(mode, apiBasePath);
  if (mode.authless) withoutCredentials(document);
  return applySuccessStatuses(document, appRouter);
}
