import { router } from '../../server/trpc/init.js';
import { createProcedure } from './create.js';
import { deleteProcedure } from './delete.js';
import { deliveriesProcedure } from './deliveries.js';
import { getProcedure } from './get.js';
import { listProcedure } from './list.js';
import { testProcedure } from './test.js';

export const alertDestinationsRouter = router({
  list: listProcedure,
  get: getProcedure,
  create: createProcedure,
  delete: deleteProcedure,
  test: testProcedure,
  deliveries: deliveriesProcedure,
});
