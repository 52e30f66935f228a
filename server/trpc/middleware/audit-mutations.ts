import type { TRPCError } from '@trpc/server';
import { errorStatusByCode } from '../../../contracts/error-codes.js';
import type { AuditOutcome } from '../../../contracts/audit.js';
import { redactParameters, resultCounts } from '../../audit/redact.js';
import type { Actor } from '../../auth/actor.js';
import { callReason } from '../../audit/call-reason.js';
import { recordAuditEvent } from '../../audit/record-audit-event.js';
import type { QueueRef } from '../../bullmq/queue-key.js';
import type { Context } from '../context.js';
import { describeError, type ErrorDescription } from '../errors.js';
import type { ProcedureMeta, RemovalDescriber } from '../init.js';

type Outcome = { ok: true; data: unknown } | { ok: false; error: TRPCError };

/** Types a procedure's describer against its own input and result. */
export const describeRemoval = <Input, Result>(
  describe: (input: Input, result: Result) => Record<string, unknown>,
): RemovalDescriber => describe as RemovalDescriber;

/** What later middleware resolved for the audit: filled by the queue middleware. */
export interface AuditTarget {
  queue?: QueueRef;
}

interface AuditedCall<Result extends Outcome> {
  ctx: Context & { actor: Actor };
  type: 'query' | 'mutation' | 'subscription';
  path: string;
  meta: ProcedureMeta | undefined;
  target: AuditTarget;
  getRawInput(): Promise<unknown>;
  next(): Promise<Result>;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

/**
 * The connection an event is about: `connectionId` on `/c/{connectionId}/...`
 * routes; on the saved-connection routes (`connections.*`) the `id` they take,
 * or the id a create returned.
 */
function connectionOf(path: string, input: Record<string, unknown> | undefined, result: Outcome): string | null {
  const named = text(input?.connectionId);
  if (named || !path.startsWith('connections.')) return named;
  const created = result.ok ? (result.data as { id?: unknown } | null)?.id : undefined;
  return text(input?.id) ?? text(created);
}

function outcomeOf(error: ErrorDescription | null): { outcome: AuditOutcome; errorCode: string | null } {
  if (!error) return { outcome: 'success', errorCode: null };
  const status: number = errorStatusByCode[error.code];
  return { outcome: status === 401 || status === 403 ? 'denied' : 'failure', errorCode: error.code };
}

/**
 * The one line a destructive queue action logs (`event: "queue.action"`):
 * who, which connection and queue, what was removed and the reason given. `stopped` means it
 * failed after removing what its error's counts say (a purge's safety cap).
 */
function logQueueAction(
  call: AuditedCall<Outcome>,
  connectionId: string | null,
  input: unknown,
  result: Outcome,
  errorCounts: Record<string, unknown> | null,
  reason: string | null,
): void {
  const describe = call.meta?.removes as ((input: unknown, result: unknown) => Record<string, unknown>) | undefined;
  const queue = call.target.queue;
  if (!describe || !queue || (!result.ok && !errorCounts)) return;
  const action = call.meta?.permission ?? call.path;
  const outcome = result.ok ? 'done' : 'stopped';
  const { kind, userId, tokenId, organizationId, role } = call.ctx.actor;
  call.ctx.logger.info(
    {
      event: 'queue.action',
      action,
      outcome,
      actor: { kind, userId, tokenId, organizationId, role },
      connectionId,
      queue: queue.name,
      prefix: queue.prefix,
      removed: result.ok ? describe(input, result.data) : errorCounts,
      reason,
    },
    `${action} ${outcome}: queue "${queue.name}"`,
  );
}

/**
 * The audit trail, as one middleware: every mutation, allowed or not, leaves
 * one event (who, organization, connection, queue, action = meta.permission,
 * redacted input, outcome, counts from the result, or from the error when it
 * stopped part way, and the reason the caller gave), and a destructive queue action its log line. It runs
 * after the action; a failed write is logged loudly without touching the
 * action's result.
 */
export async function auditMutations<Result extends Outcome>(call: AuditedCall<Result>): Promise<Result> {
  if (call.type !== 'mutation') return call.next();
  const input = (await call.getRawInput()) as Record<string, unknown> | undefined;
  const result = await call.next();
  const error = result.ok ? null : describeError(result.error);
  const counts = result.ok ? resultCounts(result.data) : resultCounts(error!.details);
  const connectionId = connectionOf(call.path, input, result);
  const reason = callReason(call.ctx);
  logQueueAction(call, connectionId, input, result, counts, reason);
  await recordAuditEvent(call.ctx.services, {
    actor: call.ctx.actor,
    action: call.meta?.permission ?? call.path,
    procedure: call.path,
    connectionId,
    queueName: call.target.queue?.name ?? text(input?.queueName),
    parameters: redactParameters(input ?? null),
    ...outcomeOf(error),
    counts,
    reason,
  });
  return result;
}
