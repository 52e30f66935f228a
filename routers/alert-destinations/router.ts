import { router } from '../../server/trpc/init.js';
import { createProcedure } from './create.js';
import { deleteProcedure } from './delete.js';
import { deliveriesProcedure } from './deliveries.js';
import { listProcedure } from './list.js';
import { testProcedure } from './test.js';

export const alertDestinationsRouter = router({ list: listProcedure, create: createProcedure, delete: deleteProcedure, test: testProcedure, deliveries: deliveriesProcedure });
