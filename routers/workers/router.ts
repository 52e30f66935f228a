import { router } from '../../server/trpc/init.js';
import { listWorkers } from './list-workers.js';

export const workersRouter = router({ list: listWorkers });
