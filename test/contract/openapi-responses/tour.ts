import { Queue } from 'bullmq';
import { afterAll, beforeAll, expect } from 'vitest';
import { bootApp, request, type TestApp } from '../../helpers/app.js';
import { asBrowser, bearer } from '../../helpers/auth.js';
import { deleteKeysMatching, storeFixture, type StoreFixture } from '../../helpers/stores.js';
import { appRouter } from '../../../routers/_app.js';
import { createApp } from '../../../server/http/app.js';
import { listen, type RunningServer } from '../../../server/http/listen.js';
import { restOperations } from '../../../server/observability/route-labels.js';
import { DocumentValidator, type DocumentedCall } from '../document-validator.js';
import { MirroredValidator } from '../support/mirrored-validator.js';
import { stockRestApi } from '../support/stock-rest-api.js';

/**
 * The one app the whole tour of /api/openapi.json runs against, in order:
 * each chapter (accounts.ts, connections-and-jobs.ts, ...) builds on what the
 * ones before it created (the owner token, the `main` connection, the
 * `emails` queue), and the test file checks at the end that every operation
 * was seen to succeed. Exported bindings are live: set in the beforeAll.
 */
// Made in the beforeAll: with the suite's shared workers (isolate: false) this module outlives one test file.
export let store: StoreFixture;
export let app: TestApp;
export let docs: DocumentValidator;
export let document: any;
/** What one chapter leaves for the next: cookies, tokens, user and connection ids. */
export const state: Record<string, string> = {};
export let queue: Queue;

export const example = (operation: string) =>
  docs.operation(operation) && (docs.operation(operation) as any).requestBody?.content['application/json'].example;
export const owner = () => bearer(state.ownerToken!);
export const browser = () => asBrowser(app, { cookie: state.cookie! });
export const queuePath = () => ({ connectionId: state.main!, queueName: 'emails' });

/** The operation called with the document's example body. */
export function withExample(operation: string, call: Omit<DocumentedCall, 'operation' | 'body'> = {}): DocumentedCall {
  const body = example(operation);
  expect(body, `${operation} has an example body`).toBeDefined();
  return { operation, body, ...call };
}

/**
 * A refusal that spends the sign-in limit the tour counts down to its 429
 * (shared-errors.ts): sent twice, it would spend it twice.
 */
const spendsAuthLimit = (operation: string, status: number) =>
  status === 429 || / \/(auth|invitations)\//.test(operation);

/**
 * Boots the app before the file's tests and tears it down after. `mirror`:
 * a second app on the same services serves REST through trpc-to-openapi's
 * stock adapter, and `docs` is a MirroredValidator over both.
 */
export function bootTour(options: { mirror?: boolean } = {}): void {
  let stock: RunningServer | undefined;
  beforeAll(async () => {
    store = storeFixture();
    for (const key of Object.keys(state)) delete state[key];
    app = await bootApp({
      env: {
        RATE_LIMIT_ENABLED: 'true',
        RATE_LIMIT_MAX: '100000',
        RATE_LIMIT_AUTH_MAX: '40', // spent by the chapters: sign-ups, previews, resets; then the 429 check spends the rest
        RATE_LIMIT_CONNECTION_TEST_MAX: '1000',
        SERVICE_QUEUE_LIST_CACHE_MS: '0',
      },
    });
    document = (await request(`${app.api}/openapi.json`)).body;
    if (options.mirror) {
      stock = await listen(createApp(app.services, { restApi: stockRestApi }), 0, '127.0.0.1');
      const procedureRoutes = new Set(restOperations(appRouter).map(({ method, path }) => `${method} ${path}`));
      docs = await MirroredValidator.mirrored(document, app.api, {
        stockApi: `${stock.url}/api`,
        procedureRoutes,
        unmirrored: spendsAuthLimit,
      });
    } else docs = await DocumentValidator.create(document, app.api);
    queue = new Queue('emails', store.bullmq);
  });

  afterAll(async () => {
    await queue?.close();
    await stock?.close();
    await app?.close();
    await deleteKeysMatching(store.redis, `scratch-${store.prefix}*`);
    await store.cleanup();
  });
}
