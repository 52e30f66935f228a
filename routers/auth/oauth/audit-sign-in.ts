import { recordAuditEvent } from '../../../server/audit/record-audit-event.js';
import { Membership } from '../../../server/persistence/entities/membership.js';
import type { Services } from '../../../server/services.js';
import type { FinishedSignIn } from './finish-sign-in.js';

const action = 'auth.oauth.signIn';

/** A failed sign-in: nobody is known yet, so it is kept in the instance (local) organization's trail. */
export async function auditFailedSignIn(services: Services, provider: string, code: string): Promise<void> {
  let organizationId: string;
  try {
    organizationId = services.persistence.localOrganizationId();
  } catch {
    return void services.logger.warn(
      { provider, authError: code },
      'sign-in failure not audited: the database is unavailable',
    );
  }
  await recordAuditEvent(services, {
    actor: { kind: 'anonymous', userId: null, tokenId: null, organizationId },
    action,
    procedure: `auth.callback.${provider}`,
    connectionId: null,
    queueName: null,
    parameters: { provider },
    outcome: 'denied',
    errorCode: code,
    counts: null,
  });
}

/** A successful sign-in, in the trail of the organization the user lands in. */
export async function auditSignIn(services: Services, provider: string, signedIn: FinishedSignIn): Promise<void> {
  const organizationId =
    signedIn.organizationId ??
    (
      await services.persistence
        .fork()
        .findOne(Membership, { userId: signedIn.userId }, { orderBy: { createdAt: 'asc', id: 'asc' } })
    )?.organizationId ??
    services.persistence.localOrganizationId();
  await recordAuditEvent(services, {
    actor: { kind: 'user', userId: signedIn.userId, tokenId: null, organizationId },
    action,
    procedure: `auth.callback.${provider}`,
    connectionId: null,
    queueName: null,
    parameters: { provider, account: signedIn.outcome },
    outcome: 'success',
    errorCode: null,
    counts: null,
  });
}
