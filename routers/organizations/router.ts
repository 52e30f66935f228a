import { router } from '../../server/trpc/init.js';
import { addMemberProcedure } from './add-member.js';
import { changeMemberRoleProcedure } from './change-member-role.js';
import { createProcedure } from './create.js';
import { getProcedure } from './get.js';
import { listMembersProcedure } from './list-members.js';
import { listProcedure } from './list.js';
import { removeMemberProcedure } from './remove-member.js';
import { updateProcedure } from './update.js';
import { createMemberPasswordResetProcedure } from './create-member-password-reset.js';

export const organizationsRouter = router({
  list: listProcedure,
  create: createProcedure,
  get: getProcedure,
  update: updateProcedure,
  listMembers: listMembersProcedure,
  addMember: addMemberProcedure,
  changeMemberRole: changeMemberRoleProcedure,
  removeMember: removeMemberProcedure,
  createMemberPasswordReset: createMemberPasswordResetProcedure,
});
