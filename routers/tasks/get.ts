import { taskParams, taskSchema } from '../../contracts/tasks.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { findTask, toTaskView } from './task-view.js';

export const getProcedure = connectionProcedure
  .meta({
    permission: 'tasks.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/tasks/{taskId}',
      tags: ['tasks'],
      summary: "A background task's state and progress",
    },
  })
  .input(taskParams)
  .output(taskSchema)
  .query(async ({ ctx, input }) =>
    toTaskView(
      await findTask(
        ctx.services.persistence.fork(),
        { organizationId: ctx.actor.organizationId, connectionId: ctx.store.connection.id },
        input.taskId,
      ),
    ),
  );
