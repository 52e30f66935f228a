import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../contracts/app-error.js';
import type { Actor } from '../../server/auth/actor.js';
import type { Context } from '../../server/trpc/context.js';
import { auditMutations, describeRemoval } from '../../server/trpc/middleware/audit-mutations.js';

/**
 * A purge stopped by its safety cap (500 batches of 1000 jobs, too many to
 * seed) has removed jobs before failing: the audit middleware must say so in
 * its log line and its audit event, from the error's details.
 */
describe('the audit of a destructive action that stopped part way', () => {
  it('logs `stopped` with what was removed and records the same counts', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const rows: Array<Record<string, unknown>> = [];
    const logger = { info: (fields: Record<string, unknown>) => lines.push(fields), error: () => undefined };
    const em = {
      create: (_entity: unknown, row: Record<string, unknown>) => rows.push(row),
      flush: async () => undefined,
    };
    const actor: Actor = { kind: 'authless', userId: null, tokenId: null, organizationId: 'org', role: 'owner' };
    const ctx = { actor, logger, services: { logger, persistence: { fork: () => em } } } as unknown as Context & {
      actor: Actor;
    };
    const capReached = new AppError('PURGE_CAP_REACHED', 'stopped', {
      status: 'waiting',
      removedSoFar: 500_000,
      removedByStatus: { waiting: 500_000 },
    });

    const result = await auditMutations({
      ctx,
      type: 'mutation',
      path: 'queues.purge',
      meta: {
        permission: 'queues.purge',
        removes: describeRemoval((_input, result: { totalRemoved: number }) => ({ totalRemoved: result.totalRemoved })),
      },
      target: { queue: { prefix: 'bull', name: 'mail' } },
      getRawInput: async () => ({
        connectionId: 'main',
        queueName: 'mail',
        confirmName: 'mail',
        statuses: ['waiting'],
      }),
      next: async () => ({ ok: false as const, error: new TRPCError({ code: 'CONFLICT', cause: capReached }) }),
    });

    expect(result.ok).toBe(false);
    expect(lines).toEqual([
      expect.objectContaining({
        event: 'queue.action',
        action: 'queues.purge',
        outcome: 'stopped',
        queue: 'mail',
        prefix: 'bull',
        removed: { removedSoFar: 500_000, removedByStatus: { waiting: 500_000 } },
      }),
    ]);
    expect(rows).toEqual([
      expect.objectContaining({
        outcome: 'failure',
        errorCode: 'PURGE_CAP_REACHED',
        queueName: 'mail',
        counts: JSON.stringify({ removedSoFar: 500_000, removedByStatus: { waiting: 500_000 } }),
      }),
    ]);
  });
});
