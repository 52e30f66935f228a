import type { EntityManager } from '../persistence/orm.js';
import { removeSamplesBefore } from './sample-repository.js';

export const rawRetentionMs = 24 * 60 * 60_000;

/** Raw samples older than a day go (their roll-ups stay); roll-ups older than the retention go. */
export async function removeExpiredSamples(em: EntityManager, retentionDays: number, now = Date.now()): Promise<void> {
  await removeSamplesBefore(em, 'raw', now - rawRetentionMs);
  await removeSamplesBefore(em, '15m', now - retentionDays * 24 * 60 * 60_000);
}
