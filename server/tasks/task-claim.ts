import type { Logger } from '../logger.js';
import { Task, type TaskRow } from '../persistence/entities/task.js';
import type { Persistence } from '../persistence/persistence.js';

const claimable = (now: number) => ({
  state: { $in: ['queued', 'running'] as Array<'queued' | 'running'> },
  $or: [{ leaseExpiresAt: null }, { leaseExpiresAt: { $lt: now } }],
});

/**
 * Claims the oldest due task for `holder`: a conditional update of its lease, which only one replica's
 * can win (free or expired only); null when none was due or other replicas took them first.
 */
export async function claimTask(
  deps: { persistence: Persistence; logger: Logger },
  holder: string,
  leaseTtlMs: number,
): Promise<TaskRow | null> {
  const em = deps.persistence.fork();
  const now = Date.now();
  const candidates = await em.find(Task, claimable(now), { orderBy: { createdAt: 'asc', id: 'asc' }, limit: 5 });
  for (const task of candidates) {
    const claimed = await em.nativeUpdate(
      Task,
      { id: task.id, ...claimable(now) },
      {
        leaseHolder: holder,
        leaseExpiresAt: now + leaseTtlMs,
        state: 'running',
        startedAt: task.startedAt ?? new Date(now),
      },
    );
    if (claimed === 1) {
      // Which replica runs what, for operators (and the lease tests): one line per claim.
      deps.logger.info(
        { taskId: task.id, kind: task.kind, holder, processed: task.processed, resumed: task.startedAt !== null },
        'task claimed',
      );
      return em.fork().findOneOrFail(Task, { id: task.id });
    }
  }
  return null;
}
