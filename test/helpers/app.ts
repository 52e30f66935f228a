import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '../../routers/_app.js';
import { loadConfig, type Config } from '../../server/config.js';
import { createApp, type AppOptions } from '../../server/http/app.js';
import { listen } from '../../server/http/listen.js';
import { createLogger } from '../../server/logger.js';
import { closeServices, createServices, type Services } from '../../server/services.js';
import { testEncryptionKey } from './connections.js';
import { createTestDatabase, type TestDatabase } from './postgres.js';

export const testAuthSecret = 'test-auth-secret-0123456789abcdef0123456789';

export type PersistenceKind = 'embedded' | 'server';
export const persistenceKinds: PersistenceKind[] = ['embedded', 'server'];

export interface TestApp {
  url: string;
  api: string;
  services: Services;
  config: Config;
  /** Every log line the service wrote, for assertions about what was (not) logged. */
  logs: string[];
  trpc: ReturnType<typeof createTRPCClient<AppRouter>>;
  close(): Promise<void>;
}

export interface BootOptions {
  persistence?: PersistenceKind;
  /** Environment variables; `undefined` leaves a variable unset. */
  env?: Record<string, string | undefined>;
  /** Reuse an existing database (server) or directory (embedded) instead of a fresh one. */
  databaseUrl?: string;
  embeddedDir?: string;
  app?: AppOptions;
}

/** Boots the real service on port 0 with real persistence: a temp SQLite dir or a fresh Postgres database. */
export async function bootApp(options: BootOptions = {}): Promise<TestApp> {
  const persistence = options.persistence ?? 'embedded';
  let database: TestDatabase | undefined;
  let tempDir: string | undefined;
  const env: Record<string, string | undefined> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'debug',
    HOST: '127.0.0.1',
    PORT: '0',
    // Server mode refuses to start authenticated without one.
    AUTH_SECRET: testAuthSecret,
    // Most tests sign several people up; the invitation policy has its own tests.
    SERVICE_SIGNUP: 'open',
    ...options.env,
  };
  if (persistence === 'server') {
    // Server mode refuses to start without one.
    if (!(options.env && 'SERVICE_ENCRYPTION_KEY' in options.env)) env.SERVICE_ENCRYPTION_KEY = testEncryptionKey;
    if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
    else {
      database = await createTestDatabase();
      env.DATABASE_URL = database.url;
    }
  } else if (!env.SERVICE_EMBEDDED_DIR) {
    if (options.embeddedDir === undefined) tempDir = await mkdtemp(path.join(tmpdir(), 'bullpen-test-'));
    env.SERVICE_EMBEDDED_DIR = options.embeddedDir ?? tempDir;
  }
  const config = loadConfig(env);
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const services = await createServices(config, createLogger({ level: config.logLevel, destination }));
  const running = await listen(createApp(services, options.app), 0, '127.0.0.1');
  services.auth.useBoundPort(running.port);
  const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${running.url}/api/trpc` })] });
  return {
    url: running.url,
    api: `${running.url}/api`,
    services,
    config,
    logs,
    trpc,
    async close() {
      await running.close();
      await closeServices(services);
      await database?.drop();
      if (tempDir) await rm(tempDir, { recursive: true, force: true });
    },
  };
}

/** fetch + JSON for REST calls in tests. */
export async function request(
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string>; rawBody?: string } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const hasBody = init.body !== undefined || init.rawBody !== undefined;
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body: init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body, headers: response.headers };
}
