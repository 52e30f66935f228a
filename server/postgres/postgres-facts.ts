import type { Queue } from 'bullmq';
import { AppError } from '../../contracts/app-error.js';
import type { StoreFacts } from '../../contracts/metrics.js';
import type { WorkerClient } from '../bullmq/client-list.js';
import type { QueueRef } from '../bullmq/queue-key.js';
import type { StoreFacts as SampledFacts } from '../history/collect-sample.js';
import type { StoreConnection } from '../stores/store-connection.js';
import { type Db, existingQueues, schedulerCounts, serverFacts, workerSessions } from './bullmq-schema.js';

/** What a PostgreSQL store answers where the route needs a Redis client it does not have yet. */
export function notYetOnPostgres(connection: StoreConnection): AppError {
  return new AppError(
    'NOT_SUPPORTED_BY_BACKEND',
    `This route does not work on PostgreSQL connections yet (connection "${connection.name}")`,
    { connectionId: connection.id, kind: 'postgres' },
  );
}

/** Store keys do not exist on PostgreSQL (400 NOT_A_KEY_VALUE_STORE). */
export function noStoreKeys(connection: StoreConnection): AppError {
  return new AppError(
    'NOT_A_KEY_VALUE_STORE',
    `Connection "${connection.name}" holds its queues in PostgreSQL: it has no store keys`,
    { connectionId: connection.id },
  );
}

/** Through BullMQ's PostgreSQL backend (its event table), which bounds what it keeps. */
export async function publishEvent(queue: Queue, fields: Record<string, string>): Promise<void> {
  const backend = queue.backend as unknown as {
    publishEvent(fields: Record<string, string>, maxEvents: number): Promise<string>;
  };
  await backend.publishEvent(fields, 10_000);
}

export async function queuesExistIn(db: Db, schema: string, refs: readonly QueueRef[]): Promise<boolean[]> {
  const found = await existingQueues(
    db,
    refs.map((ref) => ref.name),
  );
  return refs.map((ref) => ref.prefix === schema && found.has(ref.name));
}

export async function storeFactsOf(db: Db): Promise<StoreFacts> {
  const facts = await serverFacts(db);
  return {
    mode: 'standalone',
    nodes: 1,
    version: facts.version,
    usedMemoryBytes: null,
    connectedClients: facts.sessions,
    uptimeSeconds: facts.uptimeSeconds,
  };
}

export async function historyFactsOf(db: Db): Promise<SampledFacts> {
  const facts = await serverFacts(db);
  return { up: true, usedMemory: null, maxMemory: null, clients: facts.sessions, opsPerSecond: null };
}

export async function schedulerCountsOf(db: Db, refs: QueueRef[]): Promise<number[]> {
  const counts = await schedulerCounts(
    db,
    refs.map((ref) => ref.name),
  );
  return refs.map((ref) => counts.get(ref.name) ?? 0);
}

export async function workerClientsOf(db: Db, schema: string): Promise<WorkerClient[]> {
  const sessions = await workerSessions(db);
  return sessions.map(({ queue, workerName, fields }) => ({
    prefix: schema,
    queueName: queue,
    workerName,
    fields,
  }));
}
