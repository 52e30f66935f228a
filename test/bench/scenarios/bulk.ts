import { Redis } from 'ioredis';
import type { ServerProcess } from '../processes.js';
import { cloneFinishedJobs, prefix, seedLiveJobs, type BenchConnection } from '../seed.js';
import { floorMove, floorPurge, floorRetry } from './bulk-floor.js';
import { emptyMoveTarget, failAgain, reportPair, runTask, timed, type Side } from './bulk-sides.js';

/**
 * Issue 36 item 3: a million failed jobs retried, purged, then moved to another queue, as Bullpen tasks,
 * each beside a bare batched-Lua loop (the floor) on the same store and the same queue, re-filled between.
 */
export const bulkQueue = 'bulk';
/** Where the move takes the bulk queue's failed jobs (a queue of the same store). */
export const moveTarget = 'bulk-moved';

/** Fills the bulk queue with `jobs` failed jobs (ids 1..jobs, as BullMQ lays them out); a retry's leftovers go. */
export async function seedBulkQueue(redis: Redis, connection: BenchConnection, jobs: number): Promise<void> {
  await seedLiveJobs(connection, bulkQueue);
  await redis.del(`${prefix}:${bulkQueue}:wait`, `${prefix}:${bulkQueue}:failed`);
  await cloneFinishedJobs(redis, bulkQueue, 'failed', jobs, 1);
}

const retryBody = { status: 'failed', all: true, async: true };
const purgeBody = (queue: string) => ({ confirmName: queue, statuses: ['failed'], async: true });
const moveBody = (target: string) => ({ status: 'failed', all: true, to: { queueName: target }, async: true });

/**
 * Both sides run once on a small queue of their own before anything is timed, as every subject of the
 * benchmark is warmed first: Bullpen loads BullMQ on first use and its task path runs cold (the first
 * round was ~0.35× where the next ones were ~0.8–1.1×), and each side's scripts get cached.
 */
async function warmUp(bullpen: ServerProcess, connectionId: string, redis: Redis, connection: BenchConnection) {
  const queue = `${bulkQueue}-warm`;
  const path = `/queues/${queue}`;
  await seedLiveJobs(connection, queue);
  await cloneFinishedJobs(redis, queue, 'failed', 5000, 1);
  await runTask(bullpen, connectionId, `${path}/jobs/retry`, retryBody);
  await cloneFinishedJobs(redis, queue, 'failed', 5000, 5001);
  await runTask(bullpen, connectionId, `${path}/purge`, purgeBody(queue));
  await cloneFinishedJobs(redis, queue, 'failed', 5000, 10_001);
  await runTask(bullpen, connectionId, `${path}/jobs/move`, moveBody(`${queue}-moved`));
  await cloneFinishedJobs(redis, queue, 'failed', 5000, 15_001);
  await floorRetry(redis, queue, 'failed');
  await cloneFinishedJobs(redis, queue, 'failed', 5000, 20_001);
  await floorPurge(redis, queue);
  await cloneFinishedJobs(redis, queue, 'failed', 5000, 25_001);
  await floorMove(redis, queue, `${queue}-moved`);
  await redis.del(`${prefix}:${queue}:wait`, `${prefix}:${queue}:events`);
}

type Work = () => Promise<number | { jobs: number; ms: number }>;

/** The two sides of one action in a round, in the order given; `reset` between them and after. */
async function pair(
  sides: { floor: Side[]; bullpen: Side[] },
  order: Array<['floor' | 'bullpen', Work]>,
  reset: () => Promise<void>,
  port: number,
) {
  for (const [name, work] of order) {
    sides[name].push(await timed(port, work));
    await reset();
  }
}

/**
 * `rounds` rounds of retry, purge and move, each on the same queue of `jobs` failed jobs (a retry's jobs
 * failed again for the next side, a purge's and a move's re-seeded). The sides' order alternates from round
 * to round for every action (ABBA): floor first in even rounds for the retry and move, Bullpen first for
 * the purge, the other way in odd rounds, so neither side always runs on the fresher store or quieter host.
 */
export async function bulkScenario(
  bullpen: ServerProcess,
  connectionId: string,
  connection: BenchConnection,
  { jobs, rounds }: { jobs: number; rounds: number },
): Promise<void> {
  const redis = new Redis(connection);
  const path = `/queues/${bulkQueue}`;
  const sides = () => ({ floor: [] as Side[], bullpen: [] as Side[] });
  const results = { retry: sides(), purge: sides(), move: sides() };
  const reseed = () => seedBulkQueue(redis, connection, jobs);
  const task = (route: string, body: object) => () => runTask(bullpen, connectionId, `${path}${route}`, body);
  const ordered = <T>(first: T, second: T, index: number): T[] => (index % 2 === 0 ? [first, second] : [second, first]);
  await warmUp(bullpen, connectionId, redis, connection);
  await reseed();
  for (let index = 0; index < rounds; index++) {
    const retry: Array<['floor' | 'bullpen', Work]> = [
      ['floor', () => floorRetry(redis, bulkQueue, 'failed')],
      ['bullpen', task('/jobs/retry', retryBody)],
    ];
    await pair(
      results.retry,
      ordered(retry[0]!, retry[1]!, index),
      () => failAgain(redis, bulkQueue, jobs),
      connection.port,
    );
    const purge: Array<['floor' | 'bullpen', Work]> = [
      ['bullpen', task('/purge', purgeBody(bulkQueue))],
      ['floor', () => floorPurge(redis, bulkQueue)],
    ];
    await pair(results.purge, ordered(purge[0]!, purge[1]!, index), reseed, connection.port);
    const move: Array<['floor' | 'bullpen', Work]> = [
      ['floor', () => floorMove(redis, bulkQueue, moveTarget)],
      ['bullpen', task('/jobs/move', moveBody(moveTarget))],
    ];
    const afterMove = async () => {
      await emptyMoveTarget(redis, bulkQueue, moveTarget, jobs);
      await reseed();
    };
    await pair(results.move, ordered(move[0]!, move[1]!, index), afterMove, connection.port);
  }
  reportPair('retry', jobs, results.retry.floor, results.retry.bullpen);
  reportPair('purge', jobs, results.purge.floor, results.purge.bullpen);
  reportPair('move', jobs, results.move.floor, results.move.bullpen);
  redis.disconnect();
}
