import { router } from '../../server/trpc/init.js';
import { removeAcrossProcedure, retryAcrossProcedure } from './across-procedure.js';
import { clearStacktracesProcedure, duplicateProcedure, updateDataProcedure } from './fix-procedures.js';
import { moveProcedure } from './move.js';
import { addProcedure } from './add.js';
import { invokeProcedure, removeProcedure, retryProcedure } from './bulk-actions.js';
import { clearLogsProcedure } from './clear-logs.js';
import { getProcedure } from './get.js';
import { logsProcedure } from './logs.js';
import { fieldProcedure } from './field.js';
import { stacktracesProcedure } from './stacktraces.js';
import { treeProcedure } from './tree.js';
import { listProcedure } from './list.js';
import { searchProcedure } from './search.js';
import { failuresProcedure } from './failures.js';

export const jobsRouter = router({
  list: listProcedure,
  search: searchProcedure,
  failures: failuresProcedure,
  get: getProcedure,
  logs: logsProcedure,
  field: fieldProcedure,
  clearLogs: clearLogsProcedure,
  stacktraces: stacktracesProcedure,
  tree: treeProcedure,
  add: addProcedure,
  retry: retryProcedure,
  remove: removeProcedure,
  invoke: invokeProcedure,
  move: moveProcedure,
  updateData: updateDataProcedure,
  duplicate: duplicateProcedure,
  clearStacktraces: clearStacktracesProcedure,
  retryAcross: retryAcrossProcedure,
  removeAcross: removeAcrossProcedure,
});
