import type { Session } from 'lucia';
import type { AuthService } from '../../../server/auth/auth-service.js';
import { signInExternalIdentity, type ExternalSignIn } from './link-external-identity.js';
import { OAuthFailure, type ExternalProfile, type OAuthProvider } from '../../../server/auth/oauth/oauth-provider.js';
import { openAttempt, type SignInAttempt } from './state-cookie.js';
import type { AdmissionDeps } from './admit-external-user.js';
import type { EntityManager } from '../../../server/persistence/orm.js';
import { callbackUrl } from './callback-url.js';

export interface FinishedSignIn extends ExternalSignIn {
  session: Session;
  redirectTo: string;
}

/**
 * The callback's first half, for sign-ins and links alike: the attempt from
 * the state cookie must exist, be this provider's and unexpired; the
 * provider's answer must match it (state, PKCE, and for OIDC nonce, issuer,
 * audience). Returns the attempt and who signed in at the provider.
 */
export async function completeAttempt(input: {
  provider: OAuthProvider;
  auth: AuthService;
  appBaseUrl: string;
  /** The callback's query string, `?code=…&state=…`. */
  search: string;
  sealedAttempt: string | undefined;
}): Promise<{ attempt: SignInAttempt; profile: ExternalProfile }> {
  const attempt = openAttempt(input.auth.hash, input.sealedAttempt);
  if (!attempt || attempt.provider !== input.provider.id) {
    throw new OAuthFailure(
      'invalid_state',
      "the sign-in attempt is unknown, expired or another provider's (state cookie)",
    );
  }
  const url = new URL(`${callbackUrl(input.appBaseUrl, input.provider.id)}${input.search}`);
  return { attempt, profile: await input.provider.complete(url, attempt) };
}

/** A sign-in's second half: the provider account resolves to a user (or is refused) and a session starts. */
export async function finishSignIn(input: {
  provider: OAuthProvider;
  auth: AuthService;
  em: EntityManager;
  attempt: SignInAttempt;
  profile: ExternalProfile;
  /** The sign-up policy's inputs, for a first sign-in. */
  admission: AdmissionDeps;
}): Promise<FinishedSignIn> {
  const signedIn = await signInExternalIdentity(input.em, input.provider.id, input.profile, input.admission);
  const session = await input.auth.lucia.createSession(signedIn.userId, {
    activeOrganizationId: signedIn.organizationId,
  });
  return { ...signedIn, session, redirectTo: input.attempt.redirectTo };
}
