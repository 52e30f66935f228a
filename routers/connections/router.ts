import { router } from '../../server/trpc/init.js';
import { createProcedure } from './create.js';
import { deleteProcedure } from './delete.js';
import { getProcedure } from './get.js';
import { listProcedure } from './list.js';
import { testProcedure } from './test.js';
import { updateProcedure } from './update.js';

export const connectionsRouter = router({
  list: listProcedure,
  get: getProcedure,
  create: createProcedure,
  update: updateProcedure,
  delete: deleteProcedure,
  test: testProcedure,
});
