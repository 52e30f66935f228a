/** What a call needs: the walk's queue and job ids, and what earlier calls made. */
export interface WalkTargets {
  connectionId: string;
  connectionName: string;
  /** The walk's queue: completed, failed, waiting, delayed and prioritized jobs made by a real Worker. */
  queue: string;
  jobs: { completed: string; failed: string; failedToo: string; waiting: string; delayed: string };
  /** Made by earlier calls of the walk (an alert rule, a task); `unknown` until then. */
  made: { ruleId: string; taskId: string };
}

/** One procedure's call: its input (path parameters and fields), and an answer other than success it is expected to give. */
export interface WalkCall {
  input(t: WalkTargets): Record<string, unknown>;
  /** A queue of its own, seeded with a few jobs, for a call that empties or removes its queue. */
  ownQueue?: true;
  expect?: { status: number; code: string };
}

/**
 * Procedures that answer 400 NOT_SUPPORTED_BY_BACKEND on PostgreSQL (none
 * since every route was ported): the walk holds each to that answer and every
 * other connection-scoped procedure to success; a listed procedure that
 * succeeds fails the walk until it is removed here.
 */
export const notYetOnPostgres: readonly string[] = [];

const onQueue = (t: WalkTargets) => ({ connectionId: t.connectionId, queueName: t.queue });
const onJob = (t: WalkTargets, jobId: string) => ({ ...onQueue(t), jobId });
const confirm = (t: WalkTargets) => ({ confirmName: t.queue });
const onConnection = (t: WalkTargets) => ({ connectionId: t.connectionId });
const noStoreKeys = { status: 400, code: 'NOT_A_KEY_VALUE_STORE' };
const every = { type: 'every', everyMs: 3_600_000 };

/**
 * Every connection-scoped procedure of the root router with a documented
 * input, in the order the walk calls them (reads first, the calls that
 * empty or remove a queue last, each on its own queue). The walk fails when
 * the router has one this table lacks.
 */
export const walkCalls: Record<string, WalkCall> = {
  'queues.list': { input: (t) => ({ ...onConnection(t), limit: 10 }) },
  'queues.get': { input: onQueue },
  'queues.canDelete': { input: onQueue },
  'discovery.get': { input: onConnection },
  'jobs.list': { input: (t) => ({ ...onQueue(t), status: 'failed' }) },
  'jobs.search': { input: (t) => ({ ...onQueue(t), q: 'work' }) },
  'jobs.failures': { input: onQueue },
  'jobs.get': { input: (t) => onJob(t, t.jobs.failed) },
  'jobs.logs': { input: (t) => onJob(t, t.jobs.failed) },
  'jobs.field': { input: (t) => ({ ...onJob(t, t.jobs.failed), field: 'data' }) },
  'jobs.stacktraces': { input: (t) => onJob(t, t.jobs.failed) },
  'jobs.tree': { input: (t) => onJob(t, t.jobs.failed) },
  'workers.list': { input: onConnection },
  'metrics.queue': { input: onQueue },
  'metrics.connection': { input: onConnection },
  'history.connection': { input: onConnection },
  'history.queue': { input: onQueue },
  'history.insights': { input: onQueue },
  'storeKeys.search': { input: (t) => ({ ...onConnection(t), pattern: '*' }), expect: noStoreKeys },
  'storeKeys.read': { input: (t) => ({ ...onConnection(t), key: 'x' }), expect: noStoreKeys },
  'storeKeys.delete': {
    input: (t) => ({ ...onConnection(t), key: 'x', confirmName: t.connectionName }),
    expect: noStoreKeys,
  },
  'jobs.add': { input: (t) => ({ ...onQueue(t), name: 'added', data: { walk: true } }) },
  'jobs.updateData': { input: (t) => ({ ...onJob(t, t.jobs.waiting), data: { edited: true } }) },
  'jobs.duplicate': { input: (t) => onJob(t, t.jobs.waiting) },
  'jobs.invoke': { input: (t) => ({ ...onQueue(t), jobIds: [t.jobs.delayed] }) },
  'jobs.clearLogs': { input: (t) => ({ ...onJob(t, t.jobs.completed), ...confirm(t) }) },
  'jobs.clearStacktraces': { input: (t) => ({ ...onJob(t, t.jobs.failedToo), keep: 0, ...confirm(t) }) },
  'jobs.retry': { input: (t) => ({ ...onQueue(t), jobIds: [t.jobs.failed] }) },
  'jobs.retryAcross': {
    input: (t) => ({ ...onConnection(t), status: 'failed', queues: { include: [t.queue], exclude: [] } }),
  },
  'jobs.move': {
    input: (t) => ({ ...onQueue(t), to: { queueName: `${t.queue}-dlq` }, jobIds: [t.jobs.failedToo], ...confirm(t) }),
  },
  'schedulers.create': { input: (t) => ({ ...onQueue(t), schedulerId: 'walk', name: 'tick', schedule: every }) },
  'schedulers.list': { input: onConnection },
  'schedulers.listForQueue': { input: onQueue },
  'schedulers.get': { input: (t) => ({ ...onQueue(t), schedulerId: 'walk' }) },
  'schedulers.update': {
    input: (t) => ({ ...onQueue(t), schedulerId: 'walk', name: 'tock', schedule: { ...every, everyMs: 7_200_000 } }),
  },
  'schedulers.delete': { input: (t) => ({ ...onQueue(t), schedulerId: 'walk', ...confirm(t) }) },
  'queues.pause': { input: onQueue },
  'queues.resume': { input: onQueue },
  'queues.setGlobalConcurrency': { input: (t) => ({ ...onQueue(t), concurrency: 5 }) },
  'queues.removeGlobalConcurrency': { input: onQueue },
  'queues.setGlobalRateLimit': { input: (t) => ({ ...onQueue(t), max: 100, durationMs: 1000 }) },
  'queues.removeGlobalRateLimit': { input: onQueue },
  'queues.clearRateLimit': { input: onQueue },
  'discovery.scan': { input: onConnection },
  'alerts.createRule': {
    input: (t) => ({ ...onConnection(t), name: 'walk', type: 'failed_count', threshold: 10, windowMinutes: 15 }),
  },
  'alerts.listRules': { input: onConnection },
  'alerts.getRule': { input: (t) => ({ ...onConnection(t), ruleId: t.made.ruleId }) },
  'alerts.updateRule': { input: (t) => ({ ...onConnection(t), ruleId: t.made.ruleId, threshold: 20 }) },
  'alerts.testRule': { input: (t) => ({ ...onConnection(t), ruleId: t.made.ruleId }) },
  'alerts.listEvents': { input: onConnection },
  // No rule has fired on the walk's quiet queue: an unknown event is the documented 404.
  'alerts.acknowledgeEvent': {
    input: (t) => ({ ...onConnection(t), eventId: '00000000-0000-4000-8000-000000000000' }),
    expect: { status: 404, code: 'NOT_FOUND' },
  },
  'alerts.deleteRule': { input: (t) => ({ ...onConnection(t), ruleId: t.made.ruleId }) },
  'jobs.remove': { input: (t) => ({ ...onQueue(t), status: 'completed', all: true, async: true, ...confirm(t) }) },
  'tasks.list': { input: onConnection },
  'tasks.get': { input: (t) => ({ ...onConnection(t), taskId: t.made.taskId }) },
  'tasks.cancel': { input: (t) => ({ ...onConnection(t), taskId: t.made.taskId }) },
  'jobs.removeAcross': {
    ownQueue: true,
    input: (t) => ({
      ...onConnection(t),
      status: 'waiting',
      queues: { include: [t.queue], exclude: [] },
      confirmName: t.connectionName,
    }),
  },
  'queues.clean': {
    ownQueue: true,
    input: (t) => ({ ...onQueue(t), status: 'waiting', gracePeriod: 0, limit: 100, ...confirm(t) }),
  },
  'queues.purge': { ownQueue: true, input: (t) => ({ ...onQueue(t), statuses: ['all'], ...confirm(t) }) },
  'queues.obliterate': { ownQueue: true, input: (t) => ({ ...onQueue(t), ...confirm(t) }) },
  'queues.delete': {
    ownQueue: true,
    input: (t) => ({ ...onQueue(t), ...confirm(t) }),
    expect: { status: 409, code: 'QUEUE_NOT_EMPTY' },
  },
};
