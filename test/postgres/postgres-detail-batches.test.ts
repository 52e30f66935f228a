import { describe, expect, it } from 'vitest';
import { DetailBatches } from '../../server/postgres/detail-batches.js';
import { postgresBed } from '../helpers/postgres-bed.js';

/**
 * Job details read together share one statement (DetailBatches): each
 * concurrent answer must be the one the job's lone read gives, 404s
 * included, and the reads must really share statements.
 */
const bed = postgresBed();

describe('job details read concurrently on PostgreSQL', () => {
  it('answers each as its lone read does, found, missing job and missing queue alike', async () => {
    await bed.fixture.seed('batched', { completed: 2, failed: 2, waiting: 2, delayed: 1, prioritized: 1 });
    await bed.fixture.seed('other', { completed: 1, waiting: 1 });
    const paths: Array<[string, string]> = [
      ...['1', '2', '3', '4', '5', '6', '7', '8', 'missing'].map((id): [string, string] => ['batched', id]),
      ['other', '1'],
      ['other', '2'],
      ['no-such-queue', '1'],
    ];
    const read = ([queue, id]: [string, string]) => bed.call('GET', bed.queueUrl(queue, `/jobs/${id}`));
    const alone: Array<Awaited<ReturnType<typeof read>>> = [];
    for (const path of paths) alone.push(await read(path));
    expect(alone.map((answer) => answer.status)).toEqual([...Array(8).fill(200), 404, 200, 200, 404]);
    const together = await Promise.all([...paths, ...paths, ...paths].map(read));
    together.forEach((answer, index) => {
      const expected = alone[index % paths.length]!;
      expect(answer.status).toBe(expected.status);
      expect(answer.body).toEqual(expected.body);
    });
  });
});

describe('DetailBatches', () => {
  const request = (id: string) => ({ queue: 'q', id, childLimit: 20, maxBytes: 1000 });
  const job = (id: string) => ({
    bytes: 10,
    sizes: null,
    job: { id },
    logs_count: 0,
    dependency_counts: null,
    child_keys: null,
  });

  it('sends the reads that wait for a statement as one, each answered in its order', async () => {
    const statements: string[] = [];
    const db = {
      query: async (config: { name: string; values: unknown[][] }) => {
        statements.push(config.name);
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (config.name === 'bullpen-capped-job-detail') return { rows: [{ detail: job(String(config.values[1])) }] };
        const ids = config.values[1] as string[];
        return { rows: ids.map((id, index) => ({ n: String(index + 1), detail: id === 'gone' ? null : job(id) })) };
      },
    };
    const batches = new DetailBatches(1, 16);
    const reads = await Promise.all(['a', 'b', 'gone', 'c'].map((id) => batches.read(db as never, request(id))));
    expect(statements).toEqual(['bullpen-capped-job-detail', 'bullpen-capped-job-details']);
    expect(reads.map((read) => (read?.found === 'job' ? read.row.id : read))).toEqual(['a', 'b', undefined, 'c']);
  });

  it('fails every read of a batch that fails, and the next reads go on', async () => {
    let calls = 0;
    const db = {
      query: async () => {
        calls++;
        if (calls === 2) throw new Error('statement timeout');
        return { rows: [{ detail: job('x') }] };
      },
    };
    const batches = new DetailBatches(1, 16);
    const settled = await Promise.allSettled(['x', 'y', 'z'].map((id) => batches.read(db as never, request(id))));
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect((await batches.read(db as never, request('x')))?.found).toBe('job');
  });
});
