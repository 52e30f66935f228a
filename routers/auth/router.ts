import { router } from '../../server/trpc/init.js';
import { createTokenProcedure } from './create-token.js';
import { getSessionProcedure } from './get-session.js';
import { getTokenProcedure } from './get-token.js';
import { listTokensProcedure } from './list-tokens.js';
import { providersProcedure } from './providers.js';
import { revokeTokenProcedure } from './revoke-token.js';
import { setActiveOrganizationProcedure } from './set-active-organization.js';
import { signInEmailProcedure } from './sign-in-email.js';
import { signOutProcedure } from './sign-out.js';
import { signUpEmailProcedure } from './sign-up-email.js';
import { changePasswordProcedure } from './change-password.js';
import { resetPasswordProcedure } from './reset-password.js';
import { listIdentitiesProcedure } from './list-identities.js';
import { unlinkIdentityProcedure } from './unlink-identity.js';

export const authRouter = router({
  signUpEmail: signUpEmailProcedure,
  signInEmail: signInEmailProcedure,
  signOut: signOutProcedure,
  getSession: getSessionProcedure,
  setActiveOrganization: setActiveOrganizationProcedure,
  createToken: createTokenProcedure,
  listTokens: listTokensProcedure,
  getToken: getTokenProcedure,
  revokeToken: revokeTokenProcedure,
  providers: providersProcedure,
  changePassword: changePasswordProcedure,
  resetPassword: resetPasswordProcedure,
  listIdentities: listIdentitiesProcedure,
  unlinkIdentity: unlinkIdentityProcedure,
});
