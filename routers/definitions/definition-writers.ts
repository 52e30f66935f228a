import type { JobSchedulerJson } from 'bullmq';
import type { AlertRuleType, AlertRuleView } from '../../contracts/alerts.js';
import type { ConnectionRecord, CreateConnectionInput, UpdateConnectionInput } from '../../contracts/connections.js';
import type { Schedule, Scheduler, SchedulerJobOptions } from '../../contracts/schedulers.js';
import type { QueueRef } from '../../server/bullmq/queue-key.js';
import type { ResolvedQueue } from '../../server/bullmq/resolve-queue.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import type { UrlCipher } from '../../server/secrets/url-cipher.js';
import type { StoreHandle } from '../../server/stores/store-handle.js';
import type { StoreRegistry } from '../../server/stores/store-registry.js';
import type { TargetPolicy } from '../../server/stores/target-policy.js';

interface ConnectionWrite {
  em: EntityManager;
  cipher: UrlCipher;
  policy: TargetPolicy;
  organizationId: string;
}

interface RuleScope {
  em: EntityManager;
  organizationId: string;
  connectionId: string;
}

export interface RuleWrite {
  name: string;
  type: AlertRuleType;
  threshold: number;
  windowMinutes: number;
  minVolume?: number | null | undefined;
  queues?: { include: string[]; exclude: string[] } | undefined;
  destinationIds: string[];
  cooldownMinutes: number;
  enabled: boolean;
}

interface DestinationWrite {
  em: EntityManager;
  cipher: UrlCipher;
  policy: TargetPolicy;
  organizationId: string;
}

export interface SchedulerWrite {
  store: StoreHandle;
  queue: ResolvedQueue;
  schedulerId: string;
  name: string;
  data?: unknown;
  schedule: Schedule;
  options?: SchedulerJobOptions | undefined;
  mode: 'create' | 'update';
}

/**
 * What a definitions import writes with, and how it reads schedulers: the very functions the
 * resources' own routes call (connections, schedulers, alert rules and destinations), so an import
 * follows their rules (allow-lists, unique names, the one default, schedule checks). The root router
 * hands them over (routers/_app.ts), as it hands the task runner its handlers: a router folder reads
 * only its own files.
 */
export interface DefinitionWriters {
  createConnection(deps: ConnectionWrite & { input: CreateConnectionInput }): Promise<ConnectionRecord>;
  updateConnection(
    deps: ConnectionWrite & { stores: StoreRegistry; input: UpdateConnectionInput },
  ): Promise<ConnectionRecord>;
  toScheduler(queue: QueueRef, json: JobSchedulerJson): Scheduler;
  /** Checks a schedule as the scheduler routes do (400 naming the field), before anything is written. */
  checkSchedule(schedule: Schedule): Promise<unknown>;
  saveScheduler(request: SchedulerWrite): Promise<Scheduler>;
  createRule(scope: RuleScope, fields: RuleWrite): Promise<AlertRuleView>;
  updateRule(scope: RuleScope, ruleId: string, changes: Partial<RuleWrite>): Promise<AlertRuleView>;
  createDestination(
    deps: DestinationWrite,
    input: { type: 'webhook' | 'slack'; name: string; url: string; secret?: string },
  ): Promise<{ id: string }>;
  updateDestination(
    deps: DestinationWrite,
    id: string,
    changes: { type?: 'webhook' | 'slack'; url?: string; secret?: string },
  ): Promise<{ id: string }>;
}
