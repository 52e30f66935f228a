import { router } from '../../server/trpc/init.js';
import { canDeleteQueue } from './can-delete-queue.js';
import { cleanQueue } from './clean-queue.js';
import { deleteQueue } from './delete-queue.js';
import { getQueue } from './get-queue.js';
import { listQueues } from './list-queues.js';
import { obliterateQueue } from './obliterate-queue.js';
import { pauseQueue, resumeQueue } from './pause-queue.js';
import { purgeQueue } from './purge-queue.js';

export const queuesRouter = router({
  list: listQueues,
  get: getQueue,
  pause: pauseQueue,
  resume: resumeQueue,
  clean: cleanQueue,
  purge: purgeQueue,
  obliterate: obliterateQueue,
  canDelete: canDeleteQueue,
  delete: deleteQueue,
});
