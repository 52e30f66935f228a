import type { TRPCError } from '@trpc/server';
import { errorStatusByCode } from '../../../contracts/errors.js';
import type { AuditOutcome } from '../../../contracts/audit.js';
import { redactParameters, resultCounts } from '../../../domain/audit/redact.js';
import type { Actor } from '../../auth/actor.js';
import { recordAuditEvent } from '../../audit/record-audit-event.js';
import type { Context } from '../context.js';
import { describeError } from '../errors.js';
import type { ProcedureMeta } from '../init.js';

type Outcome = { ok: true; data: unknown } | { ok: false; error: TRPCError };

interface AuditedCall<Result extends Outcome> {
  ctx: Context & { actor: Actor };
  type: 'query' | 'mutation' | 'subscription';
  path: string;
  meta: ProcedureMeta | undefined;
  getRawInput(): Promise<unknown>;
  next(): Promise<Result>;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

function outcomeOf(result: Outcome): { outcome: AuditOutcome; errorCode: string | null } {
  if (result.ok) return { outcome: 'success', errorCode: null };
  const { code } = describeError(result.error);
  const status: number = errorStatusByCode[code];
  return { outcome: status === 401 || status === 403 ? 'denied' : 'failure', errorCode: code };
}

/**
 * The audit trail, as one middleware: every mutation, allowed or not, leaves
 * one event (who, organization, connection, queue, action = meta.permission,
 * redacted input, outcome, counts from the result). It runs after the action,
 * and a failed write is logged loudly without touching the action's result.
 */
export async function auditMutations<Result extends Outcome>(call: AuditedCall<Result>): Promise<Result> {
  if (call.type !== 'mutation') return call.next();
  const input = (await call.getRawInput()) as Record<string, unknown> | undefined;
  const result = await call.next();
  await recordAuditEvent(call.ctx.services, {
    actor: call.ctx.actor,
    action: call.meta?.permission ?? call.path,
    procedure: call.path,
    connectionId: text(input?.connectionId),
    queueName: text(input?.queueName),
    parameters: redactParameters(input ?? null),
    ...outcomeOf(result),
    counts: result.ok ? resultCounts(result.data) : null,
  });
  return result;
}
