import { router } from '../../server/trpc/init.js';
import { addMemberRoute } from './add-member.js';
import { changeMemberRoleRoute } from './change-member-role.js';
import { createOrganizationRoute } from './create-organization.js';
import { listMembersRoute } from './list-members.js';
import { listOrganizationsRoute } from './list-organizations.js';
import { removeMemberRoute } from './remove-member.js';
import { updateOrganizationRoute } from './update-organization.js';

export const organizationsRouter = router({
  list: listOrganizationsRoute,
  create: createOrganizationRoute,
  update: updateOrganizationRoute,
  listMembers: listMembersRoute,
  addMember: addMemberRoute,
  changeMemberRole: changeMemberRoleRoute,
  removeMember: removeMemberRoute,
});
