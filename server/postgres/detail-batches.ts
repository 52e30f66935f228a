import { type CappedJobRead, cappedJobDetail, cappedRead, detailStatement } from './postgres-job-detail.js';
import type { Db } from './schema-columns.js';

export interface DetailRequest {
  queue: string;
  id: string;
  childLimit: number;
  maxBytes: number;
}

type Waiting = { request: DetailRequest; resolve(read: CappedJobRead): void; reject(error: unknown): void };

/** Each batch entry's detail statement, in a LATERAL over the requests' arrays (the ordinality keeps their order). */
const manyDetails = `SELECT k.n, d.detail
   FROM unnest($1::text[], $2::text[], $3::int[], $4::bigint[]) WITH ORDINALITY AS k(queue, id, child_limit, max_bytes, n)
   LEFT JOIN LATERAL (${detailStatement({ queue: 'k.queue', id: 'k.id', childLimit: 'k.child_limit', maxBytes: 'k.max_bytes' })}) d ON true
  ORDER BY k.n`;

/**
 * Job detail reads of one pool, at most `inFlight` statements at a time:
 * a read that arrives while they run waits, and the reads waiting when one
 * finishes go together as ONE statement (up to `perBatch`). A lone read (a
 * quiet service) is sent at once as the single statement; under
 * concurrent reads, each pays a share of one round trip, one statement's
 * protocol messages and one backend wake-up instead of its own, on both
 * sides of the socket. A batch that fails fails each of its reads with
 * that error (as each would have failed alone: a timeout, a lost session).
 */
export class DetailBatches {
  private running = 0;
  private readonly waiting: Waiting[] = [];

  constructor(
    private readonly inFlight = 2,
    private readonly perBatch = 16,
  ) {}

  read(db: Db, request: DetailRequest): Promise<CappedJobRead> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      this.pump(db);
    });
  }

  private pump(db: Db): void {
    while (this.running < this.inFlight && this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.perBatch);
      this.running++;
      void this.send(db, batch).finally(() => {
        this.running--;
        this.pump(db);
      });
    }
  }

  private async send(db: Db, batch: Waiting[]): Promise<void> {
    try {
      const reads = batch.length === 1 ? [await single(db, batch[0]!.request)] : await many(db, batch);
      for (const [index, entry] of batch.entries()) entry.resolve(reads[index]);
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }
}

const single = (db: Db, { queue, id, childLimit, maxBytes }: DetailRequest) =>
  cappedJobDetail(db, queue, id, childLimit, maxBytes);

async function many(db: Db, batch: Waiting[]): Promise<CappedJobRead[]> {
  const requests = batch.map((entry) => entry.request);
  // Named, as the single statement: each pooled session plans it once.
  const { rows } = await db.query<{ n: string; detail: unknown }>({
    name: 'bullpen-capped-job-details',
    text: manyDetails,
    values: [
      requests.map((request) => request.queue),
      requests.map((request) => request.id),
      requests.map((request) => request.childLimit),
      requests.map((request) => request.maxBytes),
    ],
  });
  return rows.map((row) => cappedRead(row.detail));
}
