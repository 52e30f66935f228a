import pg from 'pg';
import type { Db } from './schema-columns.js';

/**
 * The exact count of one queue's rows matching `where` (a constant of the
 * schema-*.ts modules, never input), read by one backend. PostgreSQL plans
 * a count of a large status (250,000 index entries) with two parallel
 * workers: ~3 processes for ~200-400 ms on the bench's 2 cores, where one
 * backend reads the same index in ~50-90 ms and leaves the other core to
 * the requests served meanwhile (LargeCounts' background recount). The
 * setting is local to the statement's own implicit transaction (a simple
 * query of two statements: no parameters, so the queue name goes in as an
 * escaped literal), so pooled sessions keep theirs.
 */
export async function serialCount(db: Db, queue: string, where: string): Promise<number> {
  const results = (await db.query(
    `SET LOCAL max_parallel_workers_per_gather = 0;
     SELECT COUNT(*) AS count FROM job WHERE queue = ${pg.escapeLiteral(queue)} AND ${where}`,
  )) as unknown as Array<pg.QueryResult<{ count: string }>>;
  return Number(results[1]!.rows[0]!.count);
}
