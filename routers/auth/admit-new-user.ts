import { randomUUID } from 'node:crypto';
import { AppError } from '../../contracts/app-error.js';
import type { Role } from '../../contracts/system.js';
import type { Config } from '../../server/config.js';
import { InstanceSetting } from '../../server/persistence/entities/instance-setting.js';
import { Membership } from '../../server/persistence/entities/membership.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import { addOrganization } from '../../server/auth/create-organization.js';
import { firstOwnerKey, instanceClaimed } from '../../server/auth/instance-claim.js';
import { acceptInvitation, findUsableInvitation } from '../../server/auth/invitation-token.js';
import type { SecretHasher } from '../../server/auth/secret-hash.js';
import { setupTokenHashKey, setupTokenRequired } from '../../server/auth/setup-token.js';

export interface AdmissionRequest {
  em: EntityManager;
  config: Pick<Config, 'auth' | 'authless' | 'http'>;
  hash: SecretHasher;
  /** The organization created at first start; it also owns the environment connections. */
  instanceOrganizationId: string;
  /** The new user, NOT yet created in `em`: the decision queries the users table (and em would flush a pending one first). */
  user: { id: string; email: string; name: string };
  invitationToken?: string | undefined;
  setupToken?: string | undefined;
}

export interface Admission {
  organizationId: string;
  role: Role;
  via: 'first-owner' | 'invitation' | 'open';
}

/**
 * THE sign-up policy (SERVICE_SIGNUP), for every way an account is created
 * (email sign-up; OAuth too): may this new user be admitted, into which
 * organization, with which role. Adds what admission means (membership,
 * used invitation, the instance claim, a personal organization) to the
 * caller's unit of work; the caller flushes, and a unique-key violation on
 * flush means another sign-up claimed the instance first.
 *
 * - Nobody yet (any policy): the first user owns the instance organization;
 *   beyond loopback they must present the setup token printed at first start.
 * - An invitation (`invite`, `open`): joins its organization with its role.
 * - `open`: anyone else gets a personal organization.
 * - Otherwise 403 SIGNUP_CLOSED naming SERVICE_SIGNUP.
 */
export async function admitNewUser(request: AdmissionRequest): Promise<Admission> {
  const { em, config } = request;
  if (!(await instanceClaimed(em))) return admitFirstOwner(request);
  const refusal = signUpRefusal(config.auth.signup, request.invitationToken);
  if (refusal) throw refusal;
  if (request.invitationToken !== undefined) {
    const invitation = await findUsableInvitation(em, request.hash, request.invitationToken);
    await acceptInvitation(em, invitation, request.user);
    return { organizationId: invitation.organizationId, role: invitation.role, via: 'invitation' };
  }
  const organization = addOrganization(em, {
    name: `${request.user.name}'s organization`,
    ownerUserId: request.user.id,
  });
  return { organizationId: organization.id, role: 'owner', via: 'open' };
}

/**
 * What SERVICE_SIGNUP answers a sign-up once the instance has its owner:
 * null when it may admit one (`open`; an invitation under `invite`), else the
 * 403. Depends on nothing about the person, so it can be decided before the
 * email is looked up: a closed door answers every email alike.
 */
export function signUpRefusal(policy: Config['auth']['signup'], invitationToken: string | undefined): AppError | null {
  if (policy === 'open' || (invitationToken !== undefined && policy !== 'closed')) return null;
  return new AppError(
    'SIGNUP_CLOSED',
    policy === 'invite'
      ? 'Sign-up needs an invitation on this instance (SERVICE_SIGNUP=invite): ask an owner or admin for one and send its invitationToken'
      : 'Sign-up is closed on this instance (SERVICE_SIGNUP=closed): an owner adds existing users, and invitations are accepted by signed-in users',
    { setting: 'SERVICE_SIGNUP' },
  );
}

/** Throws the policy's refusal for a sign-up after the first (see signUpRefusal); the first sign-up is decided by admitNewUser. */
export async function refuseClosedSignUp(
  em: EntityManager,
  config: Pick<Config, 'auth'>,
  invitationToken: string | undefined,
): Promise<void> {
  const refusal = signUpRefusal(config.auth.signup, invitationToken);
  if (refusal && (await instanceClaimed(em))) throw refusal;
}

async function admitFirstOwner(request: AdmissionRequest): Promise<Admission> {
  const { em } = request;
  if (setupTokenRequired(request.config)) {
    const stored = await em.findOne(InstanceSetting, { key: setupTokenHashKey });
    if (!request.setupToken || !stored || stored.value !== request.hash(request.setupToken)) {
      throw new AppError(
        'SETUP_TOKEN_REQUIRED',
        'The first account on this instance needs the one-time setupToken printed in the service log at first start (embedded mode: also in the setup-token file of the data directory)',
      );
    }
    em.remove(stored);
  }
  em.create(InstanceSetting, { key: firstOwnerKey, value: request.user.id, createdAt: new Date() });
  em.create(Membership, {
    id: randomUUID(),
    organizationId: request.instanceOrganizationId,
    userId: request.user.id,
    role: 'owner',
    createdAt: new Date(),
  });
  return { organizationId: request.instanceOrganizationId, role: 'owner', via: 'first-owner' };
}
