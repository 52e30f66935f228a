import { connectionParams } from '../../contracts/params.js';
import { taskListSchema } from '../../contracts/tasks.js';
import { Task } from '../../server/persistence/entities/task.js';
import { connectionProcedure } from '../../server/trpc/procedures.js';
import { toTaskView } from './task-view.js';

export const listProcedure = connectionProcedure
  .meta({
    permission: 'tasks.read',
    openapi: {
      method: 'GET',
      path: '/c/{connectionId}/tasks',
      tags: ['tasks'],
      summary: "The connection's background tasks, newest first",
    },
  })
  .input(connectionParams)
  .output(taskListSchema)
  .query(async ({ ctx }) => {
    const rows = await ctx.services.persistence
      .fork()
      .find(
        Task,
        { organizationId: ctx.actor.organizationId, connectionId: ctx.store.connection.id },
        { orderBy: { createdAt: 'desc', id: 'desc' }, limit: 100 },
      );
    return { tasks: rows.map((row) => toTaskView(row)) };
  });
