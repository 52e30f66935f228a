import { router } from '../../server/trpc/init.js';
import { createScheduler } from './create-scheduler.js';
import { deleteScheduler } from './delete-scheduler.js';
import { getScheduler } from './get-scheduler.js';
import { listQueueSchedulers } from './list-queue-schedulers.js';
import { listSchedulers } from './list-schedulers.js';
import { updateScheduler } from './update-scheduler.js';

export const schedulersRouter = router({
  list: listSchedulers,
  listForQueue: listQueueSchedulers,
  get: getScheduler,
  create: createScheduler,
  update: updateScheduler,
  delete: deleteScheduler,
});
