import { randomUUID } from 'node:crypto';
import type { Actor } from '../auth/actor.js';
import { Task } from '../persistence/entities/task.js';
import type { EntityManager } from '../persistence/orm.js';

export interface NewTask {
  kind: string;
  organizationId: string;
  connectionId: string;
  queueName: string | null;
  params: Record<string, unknown>;
  maxPerSecond?: number | null | undefined;
}

/**
 * Queues a task for the runner (whichever replica claims it first); answers its id. This replica's
 * runner, when given, is woken to claim it at once rather than at its next poll (up to a second later).
 */
export async function createTask(
  em: EntityManager,
  task: NewTask,
  actor: Actor,
  runner?: { wake(): void },
): Promise<string> {
  const id = randomUUID();
  em.create(Task, {
    id,
    organizationId: task.organizationId,
    connectionId: task.connectionId,
    kind: task.kind,
    queueName: task.queueName,
    params: task.params,
    state: 'queued',
    processed: 0,
    total: null,
    maxPerSecond: task.maxPerSecond ?? null,
    cursor: null,
    result: null,
    error: null,
    leaseHolder: null,
    leaseExpiresAt: null,
    createdBy: { kind: actor.kind, userId: actor.userId, tokenId: actor.tokenId },
    createdAt: new Date(),
    startedAt: null,
    finishedAt: null,
  });
  await em.flush();
  runner?.wake();
  return id;
}
