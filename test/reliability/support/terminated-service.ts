import pg from 'pg';
import { afterAll, beforeAll, expect } from 'vitest';
import { request } from '../../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';
import { browser, freePort, signUpOn, startReplica, type Replica, type ReplicaUser } from './replicas.js';

/**
 * The compiled service as a child process on a database of its own, one signed-up user with a saved
 * connection, and a second client (`killer`) that terminates its backends: the set-up of
 * database-terminations.test.ts. Exported bindings are live: set once `useTerminatedService()`'s
 * beforeAll ran.
 */

export interface Answer {
  status: number;
  code?: string;
  retryAfter: string | null;
  read: boolean;
  /** The read's 200, or the write's 201 (an organization created). */
  ok: boolean;
}

export const isUnavailableAnswer = (answer: Answer) =>
  answer.status === 503 && answer.code === 'DATABASE_UNAVAILABLE' && answer.retryAfter !== null;

let database: TestDatabase;
let service: Replica;
let user: ReplicaUser;
export let killer: pg.Client;

/** Starts the database, the service and the killer before the tests of the describe it is called in; stops them after. */
export function useTerminatedService(): void {
  beforeAll(async () => {
    database = await createTestDatabase();
    // The general rate limit (300 a minute per user) out of the way: the load test alone can spend it
    // on a quiet machine, and a 429 answered before any statement would leave nothing to terminate.
    service = await startReplica(
      database.url,
      { LOG_LEVEL: 'error', PORT: String(await freePort()), RATE_LIMIT_MAX: '1000000' },
      { compiled: true },
    );
    user = await signUpOn(service.api, 'terminated');
    const created = await request(`${service.api}/connections`, {
      method: 'POST',
      headers: browser(user),
      body: { name: 'main', url: 'redis://127.0.0.1:6379/0' },
    });
    expect(created.status).toBe(201);
    killer = new pg.Client({ connectionString: database.url });
    await killer.connect();
  }, 60_000);

  afterAll(async () => {
    await killer?.end();
    await service?.stop();
    await database?.drop();
  });
}

/** A read (GET /connections) or a write (POST /organizations) as the user, and what it was answered. */
export async function call(read: boolean, index = 0): Promise<Answer> {
  const response = read
    ? await request(`${service.api}/connections`, { headers: browser(user) })
    : await request(`${service.api}/organizations`, {
        method: 'POST',
        headers: browser(user),
        body: { name: `org-${index}-${Date.now()}` },
      });
  return {
    status: response.status,
    code: response.body?.code,
    retryAfter: response.headers.get('retry-after'),
    read,
    ok: response.status === (read ? 200 : 201),
  };
}
