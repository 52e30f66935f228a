import { raw } from '@mikro-orm/core';
import { Lease } from './entities/history.js';
import type { EntityManager } from './orm.js';

/**
 * Takes or renews the lease `name` for `holder` until `now + ttlMs`, in one statement: it succeeds
 * when nobody holds it, when the holder's time ran out, or when `holder` already has it. Atomic on
 * both databases, so two replicas racing never both hold it.
 */
export async function acquireLease(
  em: EntityManager,
  name: string,
  holder: string,
  ttlMs: number,
  now = Date.now(),
): Promise<boolean> {
  await em
    .createQueryBuilder(Lease)
    .insert({ name, holder, expiresAt: now + ttlMs })
    .onConflict('name')
    .merge(['holder', 'expiresAt'])
    .where(raw('lease.expires_at < ? or lease.holder = excluded.holder', [now]))
    .execute('run');
  const row = await em.createQueryBuilder(Lease).select('holder').where({ name }).execute('get');
  return row?.holder === holder;
}

/** Gives the lease up at shutdown, so another replica takes over at once rather than after the expiry. */
export async function releaseLease(em: EntityManager, name: string, holder: string): Promise<void> {
  await em.nativeDelete(Lease, { name, holder });
}
