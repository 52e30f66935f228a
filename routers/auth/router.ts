import { router } from '../../server/trpc/init.js';
import { createApiToken } from './create-token.js';
import { getSession } from './get-session.js';
import { listApiTokens } from './list-tokens.js';
import { revokeApiToken } from './revoke-token.js';
import { setActiveOrganizationRoute } from './set-active-organization.js';
import { signInEmail } from './sign-in-email.js';
import { signOut } from './sign-out.js';
import { signUpEmail } from './sign-up-email.js';

export const authRouter = router({
  signUpEmail,
  signInEmail,
  signOut,
  getSession,
  setActiveOrganization: setActiveOrganizationRoute,
  createToken: createApiToken,
  listTokens: listApiTokens,
  revokeToken: revokeApiToken,
});
