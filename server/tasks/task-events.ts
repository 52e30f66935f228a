import type { StoreHandle } from '../stores/store-handle.js';
import type { TaskRow } from '../persistence/entities/task.js';

/**
 * Puts a task's progress on its queue's BullMQ event stream (`event: task`), so every replica's
 * event stream subscribers see it, whichever replica runs the task. Best effort: progress is
 * also in the task row.
 */
export async function publishTaskEvent(
  store: StoreHandle,
  task: Pick<TaskRow, 'id' | 'kind' | 'queueName' | 'params'>,
  progress: { state: string; processed: number; total: number | null },
): Promise<void> {
  if (!task.queueName) return;
  const prefix = typeof task.params.prefix === 'string' ? task.params.prefix : store.defaultPrefix;
  const fields = {
    event: 'task',
    taskId: task.id,
    kind: task.kind,
    state: progress.state,
    processed: String(progress.processed),
    total: String(progress.total ?? ''),
  };
  await store.publishQueueEvent({ prefix, name: task.queueName }, fields).catch(() => undefined);
}
