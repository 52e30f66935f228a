import { router } from '../../server/trpc/init.js';
import { createProcedure } from './create.js';
import { deleteProcedure } from './delete.js';
import { getProcedure } from './get.js';
import { listForQueueProcedure } from './list-for-queue.js';
import { listProcedure } from './list.js';
import { updateProcedure } from './update.js';

export const schedulersRouter = router({
  list: listProcedure,
  listForQueue: listForQueueProcedure,
  get: getProcedure,
  create: createProcedure,
  update: updateProcedure,
  delete: deleteProcedure,
});
