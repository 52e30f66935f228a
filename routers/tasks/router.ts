import { router } from '../../server/trpc/init.js';
import { cancelProcedure } from './cancel.js';
import { getProcedure } from './get.js';
import { listProcedure } from './list.js';

export const tasksRouter = router({ list: listProcedure, get: getProcedure, cancel: cancelProcedure });
