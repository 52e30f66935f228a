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
  await em.execute(
    'insert into lease (name, holder, expires_at) values (?, ?, ?) on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at where lease.expires_at < ? or lease.holder = excluded.holder',
    [name, holder, now + ttlMs, now],
    'run',
  );
  const rows = await em.execute<Array<{ holder: string }>>('select holder from lease where name = ?', [name]);
  return rows[0]?.holder === holder;
}

/** Gives the lease up at shutdown, so another replica takes over at once rather than after the expiry. */
export async function releaseLease(em: EntityManager, name: string, holder: string): Promise<void> {
  await em.execute('delete from lease where name = ? and holder = ?', [name, holder], 'run');
}
