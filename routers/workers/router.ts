import { router } from '../../server/trpc/init.js';
import { listProcedure } from './list.js';

export const workersRouter = router({ list: listProcedure });
