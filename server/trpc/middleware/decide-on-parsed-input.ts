import type { AnyMiddlewareFunction } from '@trpc/server';
import { AppError } from '../../../contracts/app-error.js';
import { assertProtectionAllows } from '../../auth/connection-protection.js';
import { assertReasonGiven } from '../../auth/require-reason.js';
import type { Actor } from '../../auth/actor.js';
import { callReason } from '../../audit/call-reason.js';
import type { ReasonPolicy } from '../../config-types.js';
import type { Context } from '../context.js';
import type { StoreConnection } from '../../stores/store-connection.js';
import type { ProcedureMeta } from '../init.js';

/** A call on a connection as the decision sees it: who, where, which route, and the input as the procedure will see it. */
export interface ParsedCall {
  connection: StoreConnection;
  actor: Actor;
  meta: ProcedureMeta | undefined;
  /** The procedure's input after zod: fields it does not declare cannot be here (inputs are strict). */
  input: Record<string, unknown> | undefined;
  /** SERVICE_REQUIRE_REASON, and the reason the call gave (server/audit/call-reason.ts). */
  reasons: { policy: ReasonPolicy; given: string | null };
}

/**
 * Everything about a connection-scoped call that depends on its input, decided
 * in one place on the PARSED input: first the connection's protection (the
 * permission says what the call changes in the store; a `dryRun: true` passes
 * only where the procedure declares `dryRun`), then the confirmation. A route
 * under a queue confirms with the queue's name, any other with the
 * connection's. `confirmName` is required on `meta.confirm` routes (purge,
 * obliterate, delete) and, for destructive calls, on `confirm` connections
 * (403 above); wherever it is sent it must be exactly right (400
 * CONFIRMATION_MISMATCH), so a confirmation typed for another queue never
 * counts as none. Last, the reason SERVICE_REQUIRE_REASON asks of the change
 * (400 REASON_REQUIRED). The role was checked before the input was read (authorize).
 */
export function decideCall({ connection, actor, meta, input, reasons }: ParsedCall): void {
  // authorize() has already refused a procedure without a permission.
  const permission = meta!.permission!;
  const confirms = meta?.openapi?.path.includes('{queueName}') ? 'queue' : 'connection';
  assertProtectionAllows({ connection, actor, permission, input, confirms });
  const expected = confirms === 'queue' ? String(input?.queueName) : connection.name;
  const sent = input?.confirmName;
  if ((meta?.confirm === 'queue' || sent !== undefined) && sent !== expected) {
    throw new AppError('CONFIRMATION_MISMATCH', `confirmName must equal the ${confirms} name "${expected}" exactly`, {
      [`${confirms}Name`]: expected,
    });
  }
  assertReasonGiven({ policy: reasons.policy, permission, input, reason: reasons.given });
}

/** decideCall as the last middleware of connection and queue procedures (see withFinalStep). */
export const decideOnParsedInput: AnyMiddlewareFunction = ({ ctx, meta, input, next }) => {
  const { store, actor } = ctx as Context & { store: { connection: StoreConnection }; actor: Actor };
  const reasons = { policy: (ctx as Context).services.config.requireReason, given: callReason(ctx as Context) };
  decideCall({
    connection: store.connection,
    actor,
    meta: meta as ProcedureMeta | undefined,
    input: input as Record<string, unknown> | undefined,
    reasons,
  });
  return next();
};
