import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { call, isUnavailableAnswer, killer, useTerminatedService, type Answer } from './support/terminated-service.js';

type Kind = 'read' | 'write';

/** What each kind of request runs when it reaches the tables the test locks. */
const waitingStatement: Record<Kind, string> = { read: '%from "connection"%', write: 'insert into "organization"%' };

/** Every backend of the database but the caller's: the pooled connections, busy and idle alike. */
const terminateAll =
  'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()';

describe('PostgreSQL backends terminated under the service (pg_terminate_backend, service child process)', () => {
  useTerminatedService();

  it('under pg_terminate_backend every second: no 500, failures are 503 + Retry-After, reads retried', async () => {
    // The pool full of idle connections first, as after busy traffic: the first sweep ends them all at once.
    await Promise.all(Array.from({ length: 16 }, () => call(true)));
    const until = Date.now() + 6000;
    const answers: Answer[] = [];
    let terminated = 0;
    const kill = async () => {
      while (Date.now() < until) {
        terminated += (await killer.query(terminateAll)).rowCount ?? 0;
        await sleep(1000);
      }
    };
    const client = async (index: number) => {
      while (Date.now() < until) answers.push(await call(index % 4 !== 0, index));
    };
    await Promise.all([kill(), ...Array.from({ length: 16 }, (_, index) => client(index))]);
    const failures = answers.filter((answer) => !answer.ok);
    const readFailures = failures.filter((answer) => answer.read).length;
    console.info(
      `terminations: ${terminated} backends, ${answers.length} answers, ${failures.length} not a success (${readFailures} reads)`,
    );
    expect(terminated).toBeGreaterThan(0);
    // Enough traffic to meet the sweeps; generous: a loaded machine answered 98 in the 6 s.
    expect(answers.length).toBeGreaterThan(30);
    expect(failures.filter((answer) => !isUnavailableAnswer(answer))).toEqual([]);
    // Random timings: whether a sweep catches a statement in flight is luck (the test below makes sure of it).
    // A retry that gets a connection the same sweep killed would fail here (see terminated-connections.test.ts).
    expect(readFailures).toBeLessThanOrEqual(answers.filter((answer) => answer.read).length * 0.02);
  }, 30_000);

  /**
   * Statements in flight when their backends are terminated, made certain: the requests wait on a lock
   * the test holds, every backend is terminated (idle pooled ones too), then the lock goes.
   */
  async function terminateWhileWaiting(kind: Kind, requests: number) {
    await killer.query('begin');
    await killer.query('lock table connection, organization in access exclusive mode');
    const answered = { all: false };
    const pending = Promise.all(Array.from({ length: requests }, (_, index) => call(kind === 'read', index))).finally(
      () => (answered.all = true),
    );
    const waiting = await waitUntilWaiting(kind, requests, answered);
    await killer.query(terminateAll);
    await killer.query('commit');
    return { waiting, answers: await pending };
  }

  /** The service back to answering reads before the next round: one that starts while it still sheds catches nothing. */
  async function settled() {
    for (const deadline = Date.now() + 5000; Date.now() < deadline; await sleep(50)) if ((await call(true)).ok) return;
    // A service that stays unavailable after a round has not recovered (a leaked pool slot did this): that is the failure.
    throw new Error('the service did not answer a read within 5 s after the previous round');
  }

  /**
   * How many of the kind's statements wait on the lock: once all do, or a grace period after the first
   * did. Reads get a short one: their retry is only made within a second of the request (retry-terminated-read.ts).
   * Writes get longer, still well inside lock_timeout (1.5 s by default).
   */
  async function waitUntilWaiting(kind: Kind, expected: number, answered: { all: boolean }): Promise<number> {
    const graceMs = kind === 'read' ? 300 : 800;
    let firstSeen: number | null = null;
    // A round whose requests were all answered without reaching the lock has nothing left to wait for.
    for (const deadline = Date.now() + 10_000; Date.now() < deadline && !answered.all; await sleep(10)) {
      // The killer is inside its transaction: without this, pg_stat_activity answers from the snapshot taken first in it.
      await killer.query('select pg_stat_clear_snapshot()');
      const { rows } = await killer.query<{ waiting: number }>(
        `select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike $1`,
        [waitingStatement[kind]],
      );
      const { waiting } = rows[0]!;
      if (waiting >= expected) return waiting;
      if (waiting > 0) firstSeen ??= Date.now();
      if (firstSeen !== null && Date.now() - firstSeen > graceMs) return waiting;
    }
    return 0;
  }

  /**
   * Rounds until `wanted` of them caught statements in flight (a round on a loaded machine can see none
   * reach the lock in time, or the service still shedding after the round before): at most five tries each.
   * A round that caught nothing prints what its requests were answered, so a shortfall says why.
   */
  async function roundsThatCaught(kind: Kind, requests: number, wanted: number) {
    const all: Array<Awaited<ReturnType<typeof terminateWhileWaiting>>> = [];
    while (all.filter((round) => round.waiting > 0).length < wanted && all.length < wanted * 5) {
      await settled();
      const round = await terminateWhileWaiting(kind, requests);
      if (round.waiting === 0)
        console.info(
          `a ${kind} round caught nothing: ${round.answers.map((answer) => answer.code ?? answer.status).join(' ')}`,
        );
      all.push(round);
    }
    return all;
  }

  it('a read whose statement is terminated is answered on a fresh connection; a write is 503 + Retry-After, not repeated', async () => {
    const reads = await roundsThatCaught('read', 5, 5);
    const writes = await roundsThatCaught('write', 2, 2);
    const waiting = (rounds: typeof reads) => rounds.map((round) => round.waiting);
    console.info(
      `statements terminated while waiting: reads ${waiting(reads).join(' ')}, writes ${waiting(writes).join(' ')}`,
    );
    // The scenario happened: five read rounds and two write rounds caught statements in flight.
    expect(waiting(reads).filter((count) => count > 0)).toHaveLength(5);
    expect(waiting(writes).filter((count) => count > 0)).toHaveLength(2);

    expect(reads.flatMap((round) => round.answers).filter((answer) => !answer.ok)).toEqual([]);
    const writeAnswers = writes.flatMap((round) => round.answers);
    expect(writeAnswers.filter((answer) => !answer.ok && !isUnavailableAnswer(answer))).toEqual([]);
    // A write caught mid-statement may have committed nothing or everything: it is never run again.
    const waitingWrites = waiting(writes).reduce((sum, count) => sum + count, 0);
    expect(writeAnswers.filter(isUnavailableAnswer).length).toBeGreaterThanOrEqual(waitingWrites);

    // Recovered by itself: a terminated write used to keep its pooled connection for good (kysely
    // releases a transaction's only after a ROLLBACK that succeeded), until writes found none left.
    await settled();
    const after = [await call(false, 100), await call(false, 101), await call(false, 102)];
    expect(after.map((answer) => answer.code ?? answer.status)).toEqual([201, 201, 201]);
  }, 120_000);
});
