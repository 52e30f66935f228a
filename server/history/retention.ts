import type { EntityManager } from '../persistence/orm.js';

export const rawRetentionMs = 24 * 60 * 60_000;

/** Raw samples older than a day go (their roll-ups stay); roll-ups older than the retention go. */
export async function removeExpiredSamples(em: EntityManager, retentionDays: number, now = Date.now()): Promise<void> {
  const rollupCutoff = now - retentionDays * 24 * 60 * 60_000;
  for (const table of ['queue_sample', 'connection_sample']) {
    await em.execute(`delete from ${table} where resolution = 'raw' and at < ?`, [now - rawRetentionMs], 'run');
    await em.execute(`delete from ${table} where resolution = '15m' and at < ?`, [rollupCutoff], 'run');
  }
}
