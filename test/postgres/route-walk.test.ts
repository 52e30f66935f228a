import { beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../../routers/_app.js';
import { partsOf, proceduresOf } from '../../server/trpc/trpc-internals.js';
import { postgresBed } from '../helpers/postgres-bed.js';
import { fillPath } from '../helpers/routes.js';
import { isDocumented } from './support/documented-codes.js';
import { notYetOnPostgres, walkCalls, type WalkTargets } from './support/route-walk-calls.js';

/**
 * Every connection-scoped procedure of the root router, called over REST on a
 * PostgreSQL connection with a queue real BullMQ Workers filled: never a 500;
 * success, or the documented 4xx its row in route-walk-calls.ts names (store
 * keys: NOT_A_KEY_VALUE_STORE); NOT_SUPPORTED_BY_BACKEND only for the
 * procedures of `notYetOnPostgres`. A procedure added to the router without a
 * row here fails the walk.
 */
const bed = postgresBed();
const routes = Object.entries(proceduresOf(appRouter)).flatMap(([procedure, built]) => {
  const { meta } = partsOf(built);
  const openapi = meta?.openapi;
  return openapi?.path.startsWith('/c/{connectionId}')
    ? [{ procedure, method: openapi.method, path: openapi.path, creates: meta?.queue === 'create' }]
    : [];
});
type Route = (typeof routes)[number];

let document: Record<string, any>;
let targets: WalkTargets;
beforeAll(async () => {
  document = (await bed.call('GET', `${bed.app.api}/openapi.json`)).body;
  const queue = await bed.fixture.seed('walk', { completed: 2, failed: 3, waiting: 2, delayed: 1, prioritized: 1 });
  const ids = async (status: 'completed' | 'failed' | 'waiting' | 'delayed') =>
    (await queue.getJobs([status])).map((job) => job.id!);
  const [completed, failed, waiting, delayed] = await Promise.all([
    ids('completed'),
    ids('failed'),
    ids('waiting'),
    ids('delayed'),
  ]);
  targets = {
    connectionId: 'main',
    connectionName: 'main',
    queue: 'walk',
    jobs: {
      completed: completed[0]!,
      failed: failed[0]!,
      failedToo: failed[1]!,
      waiting: waiting[0]!,
      delayed: delayed[0]!,
    },
    made: { ruleId: 'unknown', taskId: 'unknown' },
  };
}, 60_000);

/** The route called with `input`: path parameters in the path, the rest as the query (GET) or the JSON body. */
async function call(route: Route, input: Record<string, unknown>) {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name!);
  const path = fillPath(route.path, Object.fromEntries(names.map((name) => [name, String(input[name])])));
  const fields = Object.fromEntries(Object.entries(input).filter(([key]) => !names.includes(key)));
  if (route.method === 'GET') {
    const query = new URLSearchParams(
      Object.entries(fields).map(([key, value]): [string, string] => [key, String(value)]),
    );
    return bed.call('GET', `${bed.app.api}${path}${query.size > 0 ? `?${query}` : ''}`);
  }
  return bed.call(route.method, `${bed.app.api}${path}`, fields);
}

/** What is wrong with the answer, or undefined. */
function problemOf(route: Route, answer: { status: number; body: any }): string | undefined {
  const { status, body } = answer;
  const said = `${status} ${body?.code ?? ''} ${body?.message ?? ''}`.trim();
  if (status >= 500) return `answered ${said}`;
  if (status >= 400 && !isDocumented(document, route.method, route.path, status, body?.code))
    return `answered ${said}, not documented for ${route.method} ${route.path}`;
  const expected = notYetOnPostgres.includes(route.procedure)
    ? { status: 400, code: 'NOT_SUPPORTED_BY_BACKEND' }
    : walkCalls[route.procedure]!.expect;
  if (expected && (status !== expected.status || body?.code !== expected.code))
    return notYetOnPostgres.includes(route.procedure) && status < 300
      ? 'works on PostgreSQL now: remove it from notYetOnPostgres'
      : `answered ${said}, expected ${expected.status} ${expected.code}`;
  if (!expected && (status < 200 || status >= 300)) return `answered ${said}, expected success`;
  return undefined;
}

describe('every connection-scoped route on a PostgreSQL connection', () => {
  it('has a call for every connection-scoped procedure of the router, and only those', () => {
    expect(Object.keys(walkCalls).sort()).toEqual(routes.map((route) => route.procedure).sort());
    expect(notYetOnPostgres.filter((procedure) => !walkCalls[procedure])).toEqual([]);
  });

  it('answers each with success or its documented 4xx, never a 500', async () => {
    const problems: string[] = [];
    for (const [procedure, walk] of Object.entries(walkCalls)) {
      const route = routes.find((one) => one.procedure === procedure);
      if (!route) continue;
      const own = walk.ownQueue ? `walk-${procedure.replace('.', '-')}` : undefined;
      if (own) await bed.fixture.seed(own, { waiting: 2, completed: 1 });
      const answer = await call(route, walk.input(own ? { ...targets, queue: own } : targets));
      if (typeof answer.body?.taskId === 'string') targets.made.taskId = answer.body.taskId;
      if (procedure === 'alerts.createRule') targets.made.ruleId = String(answer.body?.id ?? answer.body?.rule?.id);
      const problem = problemOf(route, answer);
      if (problem) problems.push(`${procedure}: ${problem}`);
    }
    expect(problems).toEqual([]);
  }, 120_000);
});

/** The seed's contract, generated from the same calls: a queue or job that is not there, a wrong confirmName. */
describe('refusals on a PostgreSQL connection', () => {
  it('answers 404 for an unknown queue or job and 400 CONFIRMATION_MISMATCH for a wrong confirmName, changing nothing', async () => {
    const problems: string[] = [];
    const refused = async (route: Route, input: Record<string, unknown>, expected: [number, string], what: string) => {
      const answer = await call(route, input);
      const allowed = answer.status === expected[0] && answer.body?.code === expected[1];
      const notPorted = notYetOnPostgres.includes(route.procedure) && answer.body?.code === 'NOT_SUPPORTED_BY_BACKEND';
      if (!allowed && !notPorted) problems.push(`${route.procedure} ${what}: ${answer.status} ${answer.body?.code}`);
      if (allowed && !isDocumented(document, route.method, route.path, expected[0], expected[1]))
        problems.push(`${route.procedure} ${what}: ${expected[1]} not documented`);
    };
    const walk = bed.fixture.queue('walk');
    const before = await walk.getJobCounts();
    for (const [procedure, { input: inputOf, ownQueue }] of Object.entries(walkCalls)) {
      const route = routes.find((one) => one.procedure === procedure)!;
      const input = inputOf(targets);
      if ('queueName' in input && !route.creates) {
        const ghost = {
          ...input,
          queueName: 'ghost-queue',
          ...('confirmName' in input ? { confirmName: 'ghost-queue' } : {}),
        };
        await refused(route, ghost, [404, 'NOT_FOUND'], 'unknown queue');
      }
      if ('jobId' in input) await refused(route, { ...input, jobId: 'ghost-job' }, [404, 'NOT_FOUND'], 'unknown job');
      if ('confirmName' in input && !ownQueue)
        await refused(
          route,
          { ...input, confirmName: 'not-the-name' },
          [400, 'CONFIRMATION_MISMATCH'],
          'wrong confirmName',
        );
    }
    expect(problems).toEqual([]);
    expect(await walk.getJobCounts()).toEqual(before);
  }, 120_000);
});
