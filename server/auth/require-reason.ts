import { AppError } from '../../contracts/app-error.js';
import { storeChangeByPermission, type Permission } from '../../contracts/permissions.js';
import type { ReasonPolicy } from '../config-types.js';

/** One store change as SERVICE_REQUIRE_REASON judges it. */
export interface ReasonedCall {
  policy: ReasonPolicy;
  permission: Permission;
  /** The call's parsed input: a `dryRun: true` changes nothing and needs no reason. */
  input: Record<string, unknown> | undefined;
  /** What the caller gave (server/audit/call-reason.ts). */
  reason: string | null;
}

/** Whether the policy asks this permission's store change for a reason. */
export function needsReason(policy: ReasonPolicy, permission: Permission): boolean {
  const change = storeChangeByPermission[permission];
  if (policy === 'destructive') return change === 'destroy';
  return policy === 'all-writes' && change !== 'none';
}

/**
 * 400 REASON_REQUIRED when SERVICE_REQUIRE_REASON asks the call for a reason
 * and it gave none: `destructive` asks every destructive change (what
 * `storeChangeByPermission` calls `destroy`), `all-writes` every change to a
 * store. A dry run changes nothing and passes.
 */
export function assertReasonGiven({ policy, permission, input, reason }: ReasonedCall): void {
  if (policy === 'off' || reason !== null || input?.dryRun === true || !needsReason(policy, permission)) return;
  throw new AppError(
    'REASON_REQUIRED',
    `SERVICE_REQUIRE_REASON=${policy}: ${permission} needs a reason; send it in the Bullpen-Reason header (MCP: the reason argument; CLI: --reason)`,
    { setting: 'SERVICE_REQUIRE_REASON', requireReason: policy, permission },
  );
}
