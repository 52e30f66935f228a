import type pg from 'pg';
import type { MoveSource, MoveTarget, Parcel, StoreMoveEnds } from '../bullmq/move-across-stores.js';
import type { QueueRef } from '../bullmq/queue-key.js';
import { existingIds, insertJobs, lockWaiting } from './move-insert-sql.js';
import { movedJobOf, removeJobs, sourceRows, sourceVerdict, storedOpts } from './move-job-sql.js';
import {
  ensureJournal,
  forgetDeliveries,
  forgetJournal,
  inTransaction,
  journalDeliveries,
  journalEntries,
  journalTally,
  type JournalPlace,
} from './move-journal.js';

type Pool = () => Promise<pg.Pool>;

/** A source job in the journal: its id and creation time (as on Redis), so a re-added job of the same id is another job. */
const journalField = ({ order, job }: Parcel) => `${order.jobId}:${job.timestamp}`;

/**
 * A PostgreSQL store's ends of a move across stores (move-across-stores.ts). No single step spans
 * two stores, so each side is one transaction: the source's release judges and deletes its rows
 * under a row lock (a worker's claim skips locked rows); the target's delivery adds the copies and
 * journals them (move-journal.ts) together, so a resumed task finds what the run that died delivered.
 * Between two queues of one PostgreSQL store the same path serves (no single-step path).
 */
export function postgresMoveEnds(db: Pool, place: JournalPlace): StoreMoveEnds {
  return {
    source: (ref) => postgresMoveSource(db, ref.name),
    target: (ref, from) => postgresMoveTarget(db, ref.name, sourceOf(from), place),
  };
}

const sourceOf = (from: { connectionId: string; ref: QueueRef }) =>
  JSON.stringify([from.connectionId, from.ref.prefix, from.ref.name]);

export function postgresMoveSource(db: Pool, queue: string): MoveSource {
  return {
    readOpts: async (ids) => storedOpts(await db(), queue, ids),
    async inspect(orders) {
      const rows = await sourceRows(
        await db(),
        queue,
        orders.map((order) => order.jobId),
        false,
      );
      return orders.map((order) => {
        const row = rows.get(order.jobId);
        return sourceVerdict(row, order.readOpts) ?? movedJobOf(row!);
      });
    },
    async release(orders) {
      if (orders.length === 0) return [];
      return inTransaction(await db(), async (client) => {
        const rows = await sourceRows(
          client,
          queue,
          orders.map((order) => order.jobId),
          true,
        );
        const verdicts = orders.map((order) => sourceVerdict(rows.get(order.jobId), order.readOpts) ?? 'moved');
        const leaving = orders.filter((_, index) => verdicts[index] === 'moved').map((order) => rows.get(order.jobId)!);
        await removeJobs(client, queue, leaving);
        return verdicts;
      });
    },
  };
}

export function postgresMoveTarget(db: Pool, queue: string, source: string, place: JournalPlace): MoveTarget {
  // One delivery or recall into a queue at a time: the journal's reading and writing are one decision.
  const serialized = (client: pg.PoolClient) =>
    client.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`bullpen:move:${queue}`]);
  // The journal, created on first use; dropped while the service ran (no move under way), made again.
  const journaled = async <T>(work: (pool: pg.Pool) => Promise<T>): Promise<T> => {
    const pool = await db();
    await ensureJournal(pool, place);
    try {
      return await work(pool);
    } catch (error) {
      if ((error as { code?: string }).code !== '42P01') throw error;
      forgetJournal(pool);
      await ensureJournal(pool, place);
      return work(pool);
    }
  };
  return {
    async deliver(parcels, mover) {
      return journaled((pool) =>
        inTransaction(pool, async (client) => {
          await serialized(client);
          const journal = await journalEntries(client, queue, source, parcels.map(journalField));
          const taken = await existingIds(
            client,
            queue,
            parcels.map(({ order }) => order.targetId),
          );
          const fresh: Parcel[] = [];
          const outcomes = parcels.map((parcel) => {
            const by = journal.get(journalField(parcel));
            if (by === mover) return 'delivered' as const;
            if (by !== undefined) return 'missing' as const;
            if (taken.has(parcel.order.targetId)) return 'taken' as const;
            fresh.push(parcel);
            return 'delivered' as const;
          });
          await insertJobs(client, queue, fresh);
          await journalDeliveries(client, queue, source, fresh.map(journalField), mover);
          return outcomes;
        }),
      );
    },
    async recall(parcels, mover) {
      if (parcels.length === 0) return [];
      return journaled((pool) =>
        inTransaction(pool, async (client) => {
          await serialized(client);
          const journal = await journalEntries(client, queue, source, parcels.map(journalField));
          const mine = parcels.filter((parcel) => journal.get(journalField(parcel)) === mover);
          const waiting = await lockWaiting(
            client,
            queue,
            mine.map(({ order }) => order.targetId),
          );
          const back = mine.filter(({ order }) => waiting.has(order.targetId));
          await removeJobs(
            client,
            queue,
            back.map(({ order, job }) => ({
              id: order.targetId,
              state: 'waiting',
              priority: Number(job.priority) || 0,
            })),
          );
          await forgetDeliveries(client, queue, source, back.map(journalField));
          return parcels.map((parcel) => back.includes(parcel));
        }),
      );
    },
    tally: (mover) => journaled((pool) => journalTally(pool, queue, mover)),
  };
}
