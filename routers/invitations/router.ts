import { router } from '../../server/trpc/init.js';
import { acceptProcedure } from './accept.js';
import { createProcedure } from './create.js';
import { getProcedure } from './get.js';
import { listProcedure } from './list.js';
import { previewProcedure } from './preview.js';
import { revokeProcedure } from './revoke.js';

export const invitationsRouter = router({
  create: createProcedure,
  list: listProcedure,
  get: getProcedure,
  revoke: revokeProcedure,
  preview: previewProcedure,
  accept: acceptProcedure,
});
