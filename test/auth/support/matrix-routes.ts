import type { SavedConnection } from './matrix-world.js';
import { templateJobs, templateScheduler, templateTag } from './queue-template.js';

/** What a case may need made fresh before it runs (an allowed call may change or remove it). */
export type Need =
  | 'queue'
  | 'member'
  | 'memberToken'
  | 'invitation'
  | 'rule'
  | 'event'
  | 'destination'
  | 'task'
  | 'key'
  | 'spareConnection';

export interface CaseTargets {
  connection: SavedConnection;
  organizationId: string;
  queueName: string;
  memberUserId: string;
  tokenId: string;
  invitationId: string;
  ruleId: string;
  eventId: string;
  destinationId: string;
  taskId: string;
  key: string;
  spareConnectionId: string;
  /** A name nothing else uses, for what a case creates. */
  fresh: string;
}

export interface MatrixRoute {
  needs?: Need[];
  /** The input as documented: path parameters and body; `confirmName` wherever the route takes one. */
  input(t: CaseTargets): Record<string, unknown>;
  /** What an allowed call may answer besides 200/201/202 (the template queue holds jobs: a delete is 409). */
  alsoAllowed?: number[];
  /** The call creates in the organization it acts in (there is nothing of A's to reach): only `same` applies. */
  actingOrganization?: true;
  /** `membership`: the input names A itself; any member of A reaches it, whichever organization the session is in. */
  reach?: 'membership';
  /** Beyond its permission: only an owner of A (an instance owner) may. */
  instanceOwnerOnly?: true;
  /** Beyond its permission: below admin, only on one's own (the target is always another member's). */
  ownOrAdmin?: true;
}

const onQueue = (t: CaseTargets) => ({ connectionId: t.connection.id, queueName: t.queueName });
const onJob = (t: CaseTargets, jobId: string) => ({ ...onQueue(t), jobId });
const confirmQueue = (t: CaseTargets) => ({ confirmName: t.queueName });
const query = (status: string) => ({ query: { q: templateTag, status: [status] } });
const every = { type: 'every', everyMs: 3_600_000 };

/**
 * Every mutating procedure that declares a permission, with its documented
 * input against fresh targets. The matrix test fails when the router has one
 * this table lacks, so a new route cannot skip the attack.
 */
export const matrixRoutes: Record<string, MatrixRoute> = {
  'connections.create': {
    actingOrganization: true,
    input: (t) => ({ name: `new-${t.fresh}`, url: 'redis://127.0.0.1:6379/0', prefix: `nx${t.fresh}` }),
  },
  'connections.update': {
    needs: ['spareConnection'],
    input: (t) => ({ id: t.spareConnectionId, environment: 'staging' }),
  },
  'connections.delete': { needs: ['spareConnection'], input: (t) => ({ id: t.spareConnectionId }) },
  'connections.test': { input: (t) => ({ id: t.connection.id }) },
  'jobs.clearLogs': { needs: ['queue'], input: (t) => ({ ...onJob(t, templateJobs.failed), ...confirmQueue(t) }) },
  'jobs.add': { needs: ['queue'], input: (t) => ({ ...onQueue(t), name: 'added', data: { tag: templateTag } }) },
  'jobs.retry': { needs: ['queue'], input: (t) => ({ ...onQueue(t), ...query('failed') }) },
  'jobs.remove': { needs: ['queue'], input: (t) => ({ ...onQueue(t), ...query('completed'), ...confirmQueue(t) }) },
  'jobs.invoke': { needs: ['queue'], input: (t) => ({ ...onQueue(t), jobIds: [templateJobs.delayed] }) },
  'jobs.move': {
    needs: ['queue'],
    input: (t) => ({
      ...onQueue(t),
      to: { queueName: `${t.queueName}-dlq` },
      status: 'failed',
      all: true,
      ...confirmQueue(t),
    }),
  },
  'jobs.updateData': {
    needs: ['queue'],
    input: (t) => ({ ...onJob(t, templateJobs.waiting), data: { tag: templateTag, edited: true } }),
  },
  'jobs.duplicate': { needs: ['queue'], input: (t) => onJob(t, templateJobs.waiting) },
  'jobs.clearStacktraces': {
    needs: ['queue'],
    input: (t) => ({ ...onJob(t, templateJobs.failed), keep: 0, ...confirmQueue(t) }),
  },
  'jobs.retryAcross': {
    needs: ['queue'],
    input: (t) => ({
      connectionId: t.connection.id,
      status: 'failed',
      queues: { include: [t.queueName], exclude: [] },
    }),
  },
  'jobs.removeAcross': {
    needs: ['queue'],
    input: (t) => ({
      connectionId: t.connection.id,
      status: 'completed',
      queues: { include: [t.queueName], exclude: [] },
      confirmName: t.connection.name,
    }),
  },
  'schedulers.create': {
    needs: ['queue'],
    input: (t) => ({ ...onQueue(t), schedulerId: 's2', name: 'tick', schedule: every }),
  },
  'schedulers.update': {
    needs: ['queue'],
    input: (t) => ({
      ...onQueue(t),
      schedulerId: templateScheduler,
      name: 'tock',
      schedule: { ...every, everyMs: 7_200_000 },
    }),
  },
  'schedulers.delete': {
    needs: ['queue'],
    input: (t) => ({ ...onQueue(t), schedulerId: templateScheduler, ...confirmQueue(t) }),
  },
  'storeKeys.delete': {
    needs: ['key'],
    input: (t) => ({ connectionId: t.connection.id, key: t.key, confirmName: t.connection.name }),
  },
  'queues.pause': { needs: ['queue'], input: onQueue },
  'queues.resume': { needs: ['queue'], input: onQueue },
  'queues.clean': {
    needs: ['queue'],
    input: (t) => ({ ...onQueue(t), status: 'completed', gracePeriod: 0, limit: 100, ...confirmQueue(t) }),
  },
  'queues.purge': { needs: ['queue'], input: (t) => ({ ...onQueue(t), statuses: ['completed'], ...confirmQueue(t) }) },
  'queues.obliterate': { needs: ['queue'], input: (t) => ({ ...onQueue(t), ...confirmQueue(t) }) },
  'queues.delete': { needs: ['queue'], alsoAllowed: [409], input: (t) => ({ ...onQueue(t), ...confirmQueue(t) }) },
  'queues.setGlobalConcurrency': { needs: ['queue'], input: (t) => ({ ...onQueue(t), concurrency: 5 }) },
  'queues.removeGlobalConcurrency': { needs: ['queue'], input: onQueue },
  'queues.setGlobalRateLimit': { needs: ['queue'], input: (t) => ({ ...onQueue(t), max: 100, durationMs: 1000 }) },
  'queues.removeGlobalRateLimit': { needs: ['queue'], input: onQueue },
  'queues.clearRateLimit': { needs: ['queue'], input: onQueue },
  'discovery.scan': { input: (t) => ({ connectionId: t.connection.id }) },
  'tasks.cancel': { needs: ['task'], input: (t) => ({ connectionId: t.connection.id, taskId: t.taskId }) },
  'alerts.createRule': {
    input: (t) => ({
      connectionId: t.connection.id,
      name: `rule ${t.fresh}`,
      type: 'failed_count',
      threshold: 10,
      windowMinutes: 15,
    }),
  },
  'alerts.updateRule': {
    needs: ['rule'],
    input: (t) => ({ connectionId: t.connection.id, ruleId: t.ruleId, threshold: 20 }),
  },
  'alerts.deleteRule': { needs: ['rule'], input: (t) => ({ connectionId: t.connection.id, ruleId: t.ruleId }) },
  'alerts.testRule': { needs: ['rule'], input: (t) => ({ connectionId: t.connection.id, ruleId: t.ruleId }) },
  'alerts.acknowledgeEvent': {
    needs: ['rule', 'event'],
    input: (t) => ({ connectionId: t.connection.id, eventId: t.eventId }),
  },
  'alertDestinations.create': {
    actingOrganization: true,
    input: (t) => ({ type: 'webhook', name: `hook ${t.fresh}`, url: 'http://127.0.0.1:9/alerts' }),
  },
  'alertDestinations.delete': { needs: ['destination'], input: (t) => ({ destinationId: t.destinationId }) },
  'alertDestinations.test': { needs: ['destination'], input: (t) => ({ destinationId: t.destinationId }) },
  'auth.setActiveOrganization': { reach: 'membership', input: (t) => ({ organizationId: t.organizationId }) },
  'auth.createToken': { actingOrganization: true, input: (t) => ({ name: `token ${t.fresh}`, role: 'viewer' }) },
  'auth.revokeToken': { needs: ['member', 'memberToken'], ownOrAdmin: true, input: (t) => ({ id: t.tokenId }) },
  'organizations.create': { actingOrganization: true, input: (t) => ({ name: `org ${t.fresh}` }) },
  'organizations.update': { input: (t) => ({ organizationId: t.organizationId, name: `renamed ${t.fresh}` }) },
  'organizations.addMember': {
    input: (t) => ({ organizationId: t.organizationId, email: `${t.fresh}@example.test`, role: 'viewer' }),
  },
  'organizations.changeMemberRole': {
    needs: ['member'],
    input: (t) => ({ organizationId: t.organizationId, userId: t.memberUserId, role: 'operator' }),
  },
  'organizations.removeMember': {
    needs: ['member'],
    input: (t) => ({ organizationId: t.organizationId, userId: t.memberUserId }),
  },
  'organizations.createMemberPasswordReset': {
    needs: ['member'],
    instanceOwnerOnly: true,
    input: (t) => ({ organizationId: t.organizationId, userId: t.memberUserId }),
  },
  'invitations.create': {
    input: (t) => ({ organizationId: t.organizationId, email: `${t.fresh}@example.test`, role: 'viewer' }),
  },
  // Bullpen's own records only (an alert rule on the case's connection, by name): its protection has no part to play.
  'definitions.import': {
    actingOrganization: true,
    input: (t) => ({
      definitions: {
        bullpenDefinitions: 1,
        connections: [
          {
            name: t.connection.name,
            alertRules: [{ name: `imported ${t.fresh}`, type: 'backlog', threshold: 100, windowMinutes: 5 }],
          },
        ],
      },
    }),
  },
  'invitations.revoke': {
    needs: ['invitation'],
    input: (t) => ({ organizationId: t.organizationId, invitationId: t.invitationId }),
  },
};
