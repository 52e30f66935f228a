import { AppError } from '../../contracts/app-error.js';
import { taskParams, taskSchema } from '../../contracts/tasks.js';
import { Task } from '../../server/persistence/entities/task.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { findTask, toTaskView } from './task-view.js';

export const cancelProcedure = connectionProcedure
  .meta({
    permission: 'tasks.cancel',
    differs: {
      delete:
        'Cancels the task rather than deleting it: it answers the task, now `cancelled`, which stays readable with its progress.',
    },
    errors: { CONFLICT: 'The task already ended' },
    openapi: {
      method: 'DELETE',
      path: '/c/{connectionId}/tasks/{taskId}',
      tags: ['tasks'],
      summary: 'Cancel a queued or running task; a running one stops after its current batch',
    },
  })
  .input(taskParams)
  .output(taskSchema)
  .mutation(async ({ ctx, input }) => {
    const em = ctx.services.persistence.fork();
    const scope = { organizationId: ctx.actor.organizationId, connectionId: ctx.store.connection.id };
    const task = await findTask(em, scope, input.taskId);
    const cancelled = await em.nativeUpdate(
      Task,
      { id: task.id, state: { $in: ['queued', 'running'] } },
      { state: 'cancelled', finishedAt: new Date() },
    );
    if (cancelled === 0)
      throw new AppError('CONFLICT', `Task ${task.id} already ended (${task.state})`, { taskId: task.id });
    return toTaskView(await findTask(em.fork(), scope, task.id));
  });
