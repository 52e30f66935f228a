import { router } from '../../server/trpc/init.js';
import {
  clearRateLimitProcedure,
  removeGlobalConcurrencyProcedure,
  removeGlobalRateLimitProcedure,
  setGlobalConcurrencyProcedure,
  setGlobalRateLimitProcedure,
} from './limit-procedures.js';
import { canDeleteProcedure } from './can-delete.js';
import { cleanProcedure } from './clean.js';
import { deleteProcedure } from './delete.js';
import { getProcedure } from './get.js';
import { listProcedure } from './list.js';
import { obliterateProcedure } from './obliterate.js';
import { pauseProcedure, resumeProcedure } from './pause-resume.js';
import { purgeProcedure } from './purge.js';

export const queuesRouter = router({
  list: listProcedure,
  get: getProcedure,
  pause: pauseProcedure,
  resume: resumeProcedure,
  clean: cleanProcedure,
  purge: purgeProcedure,
  obliterate: obliterateProcedure,
  canDelete: canDeleteProcedure,
  delete: deleteProcedure,
  setGlobalConcurrency: setGlobalConcurrencyProcedure,
  removeGlobalConcurrency: removeGlobalConcurrencyProcedure,
  setGlobalRateLimit: setGlobalRateLimitProcedure,
  removeGlobalRateLimit: removeGlobalRateLimitProcedure,
  clearRateLimit: clearRateLimitProcedure,
});
