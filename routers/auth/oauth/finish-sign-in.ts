import type { Session } from 'lucia';
import type { AuthService } from '../../../server/auth/auth-service.js';
import { signInExternalIdentity, type ExternalSignIn } from '../../../server/auth/oauth/link-external-identity.js';
import { OAuthFailure, type OAuthProvider } from '../../../server/auth/oauth/oauth-provider.js';
import { openAttempt } from '../../../server/auth/oauth/state-cookie.js';
import type { AdmissionDeps } from '../../../server/auth/oauth/admit-external-user.js';
import type { EntityManager } from '../../../server/persistence/orm.js';
import { callbackUrl } from './callback-url.js';

export interface FinishedSignIn extends ExternalSignIn {
  session: Session;
  redirectTo: string;
}

/**
 * Finishes a sign-in at the callback: the attempt from the state cookie must
 * exist, be this provider's and unexpired; the provider's answer must match
 * it (state, PKCE, and for OIDC nonce, issuer, audience); then the account
 * resolves to a user and a session starts.
 */
export async function finishSignIn(input: {
  provider: OAuthProvider;
  auth: AuthService;
  em: EntityManager;
  appBaseUrl: string;
  /** The callback's query string, `?code=…&state=…`. */
  search: string;
  sealedAttempt: string | undefined;
  /** The sign-up policy's inputs, for a first sign-in. */
  admission: AdmissionDeps;
}): Promise<FinishedSignIn> {
  const attempt = openAttempt(input.auth.hash, input.sealedAttempt);
  if (!attempt || attempt.provider !== input.provider.id) {
    throw new OAuthFailure('invalid_state', 'the sign-in attempt is unknown, expired or another provider\'s (state cookie)');
  }
  const url = new URL(`${callbackUrl(input.appBaseUrl, input.provider.id)}${input.search}`);
  const profile = await input.provider.complete(url, attempt);
  const signedIn = await signInExternalIdentity(input.em, input.provider.id, profile, input.admission);
  const session = await input.auth.lucia.createSession(signedIn.userId, { activeOrganizationId: signedIn.organizationId });
  return { ...signedIn, session, redirectTo: attempt.redirectTo };
}
