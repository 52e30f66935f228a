import { afterAll, beforeAll } from 'vitest';
import { bootApp, request, type TestApp } from './app.js';
import { postgresQueueFixture, type PostgresQueueFixture } from './postgres-queues.js';

export interface PostgresBed {
  readonly app: TestApp;
  readonly fixture: PostgresQueueFixture;
  /** `/api/c/main/queues/<name><rest>` */
  queueUrl(name: string, rest?: string): string;
  call(method: string, url: string, body?: unknown): ReturnType<typeof request>;
}

/** One service per test file over a fresh database holding BullMQ's PostgreSQL schema (connection `main`, no name cache). */
export function postgresBed(env: Record<string, string> = {}, options: { schema?: string } = {}): PostgresBed {
  let fixture: PostgresQueueFixture | undefined;
  let app: TestApp | undefined;
  beforeAll(async () => {
    fixture = await postgresQueueFixture(options);
    app = await bootApp({ env: { ...fixture.env, SERVICE_QUEUE_LIST_CACHE_MS: '0', ...env } });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await fixture?.cleanup();
  });
  const booted = <T>(value: T | undefined): T => {
    if (!value) throw new Error('the PostgreSQL bed has not booted yet');
    return value;
  };
  return {
    get app() {
      return booted(app);
    },
    get fixture() {
      return booted(fixture);
    },
    queueUrl: (name, rest = '') => `${booted(app).api}/c/main/queues/${encodeURIComponent(name)}${rest}`,
    call: (method, url, body) => request(url, { method, body }),
  };
}
