import type { TaskView } from '../../contracts/tasks.js';
import { AppError } from '../../contracts/app-error.js';
import { Task, type TaskRow } from '../../server/persistence/entities/task.js';
import type { EntityManager } from '../../server/persistence/orm.js';

export function toTaskView(row: TaskRow, now = Date.now()): TaskView {
  const started = row.startedAt?.getTime();
  const until = row.finishedAt?.getTime() ?? now;
  const seconds = started === undefined ? 0 : Math.max(0.001, (until - started) / 1000);
  return {
    id: row.id,
    kind: row.kind,
    queueName: row.queueName ?? null,
    state: row.state,
    processed: row.processed,
    total: row.total ?? null,
    ratePerSecond: started === undefined ? 0 : Math.round((row.processed / seconds) * 10) / 10,
    maxPerSecond: row.maxPerSecond ?? null,
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    error: row.error ?? null,
    result: row.result ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function findTask(
  em: EntityManager,
  scope: { organizationId: string; connectionId: string },
  taskId: string,
): Promise<TaskRow> {
  const row = await em.findOne(Task, { id: taskId, ...scope });
  if (!row) throw new AppError('NOT_FOUND', `Task ${taskId} was not found`, { taskId });
  return row;
}
