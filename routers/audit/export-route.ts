import type { Response } from 'express';
import type { z } from 'zod';
import { auditQuerySchema } from '../../contracts/audit.js';
import { AppError } from '../../contracts/app-error.js';
import { recordAuditEvent } from '../../server/audit/record-audit-event.js';
import { authorize } from '../../server/auth/authorize.js';
import { requireActor } from '../../server/auth/require-actor.js';
import { plainRoute } from '../../server/http/plain-route.js';
import { AuditEvent, type AuditEventRecord } from '../../server/persistence/entities/audit-event.js';
import type { EntityManager } from '../../server/persistence/orm.js';
import type { Services } from '../../server/services.js';
import { describeError } from '../../server/trpc/errors.js';
import { eventView } from './query-audit.js';

export const auditExportPath = '/audit/export';

const exportQuery = auditQuerySchema.pick({ from: true, to: true });

const batchSize = 500;

/** Every event of the organization in [from, to), oldest first, in keyset batches: memory stays flat. */
async function* exportedEvents(em: EntityManager, organizationId: string, range: z.infer<typeof exportQuery>) {
  const window = {
    ...(range.from ? { $gte: new Date(range.from) } : {}),
    ...(range.to ? { $lt: new Date(range.to) } : {}),
  };
  let after: { at: Date; id: string } | null = null;
  for (;;) {
    const rows: AuditEventRecord[] = await em.find(
      AuditEvent,
      {
        $and: [
          { organizationId },
          ...(Object.keys(window).length > 0 ? [{ at: window }] : []),
          ...(after ? [{ $or: [{ at: { $gt: after.at } }, { at: after.at, id: { $gt: after.id } }] }] : []),
        ],
      },
      { orderBy: { at: 'asc', id: 'asc' }, limit: batchSize },
    );
    for (const row of rows) yield eventView(row);
    if (rows.length < batchSize) return;
    after = { at: rows.at(-1)!.at, id: rows.at(-1)!.id };
    em.clear();
  }
}

async function streamEvents(res: Response, events: AsyncGenerator<unknown>): Promise<number> {
  let count = 0;
  for await (const event of events) {
    if (!res.write(`${JSON.stringify(event)}\n`)) await new Promise((resolve) => res.once('drain', resolve));
    count++;
  }
  return count;
}

/**
 * GET /api/audit/export?from&to: the organization's audit trail as NDJSON
 * (one event per line, oldest first), for auditors; admins and owners. A
 * plain route because the REST adapter cannot stream, guarded like every
 * procedure (rate limit, identity, errors). The export is itself audited
 * (action `audit.read`, procedure `audit.export`), a refused one too.
 */
export function auditExportRoute(services: Services) {
  return plainRoute(services, 'audit.export', async ({ ctx, req, res }) => {
    const actor = await requireActor(ctx);
    const range = exportQuery.safeParse(req.query);
    const audit = (
      outcome: 'success' | 'failure' | 'denied',
      errorCode: string | null,
      counts: Record<string, number> | null,
    ) =>
      recordAuditEvent(services, {
        actor,
        action: 'audit.read',
        procedure: 'audit.export',
        connectionId: null,
        queueName: null,
        parameters: range.success ? range.data : null,
        outcome,
        errorCode,
        counts,
      });
    try {
      authorize(actor, 'audit.read', 'audit.export');
      if (!range.success)
        throw new AppError('VALIDATION_FAILED', 'from and to must be dates (midnight UTC) or ISO 8601 date-times');
      const events = exportedEvents(services.persistence.fork(), actor.organizationId, range.data);
      const first = await events.next();
      res.status(200).type('application/x-ndjson');
      if (!first.done) res.write(`${JSON.stringify(first.value)}\n`);
      const count = first.done ? 0 : 1 + (await streamEvents(res, events));
      // Audited before the response ends: whoever read the export finds it in the trail.
      await audit('success', null, { exported: count });
      res.end();
    } catch (error) {
      const { httpStatus, code } = describeError(error);
      await audit(httpStatus === 403 ? 'denied' : 'failure', code, null);
      throw error;
    }
  });
}
