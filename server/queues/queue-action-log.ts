import type { Permission } from '../../contracts/permissions.js';
import type { RecordQueueAction } from '../../domain/queues/queue-action.js';
import type { Actor } from '../auth/actor.js';
import type { Logger } from '../logger.js';
import type { StoreHandle } from '../stores/store-handle.js';

/**
 * One structured log line per destructive queue operation: who, which
 * connection and queue, what was removed. The audit trail reads the same
 * fields (`event: "queue.action"`).
 */
export function queueActionLogger(ctx: { logger: Logger; actor: Actor; store: StoreHandle }, action: Permission): RecordQueueAction {
  const { kind, userId, tokenId, organizationId, role } = ctx.actor;
  return ({ queue, outcome, removed }) =>
    ctx.logger.info(
      {
        event: 'queue.action',
        action,
        outcome,
        actor: { kind, userId, tokenId, organizationId, role },
        connectionId: ctx.store.connection.id,
        queue: queue.name,
        prefix: queue.prefix,
        removed,
      },
      `${action} ${outcome}: queue "${queue.name}"`,
    );
}
