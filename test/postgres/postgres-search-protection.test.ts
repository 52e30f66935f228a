import { describe, expect, it } from 'vitest';
import { postgresBed } from '../helpers/postgres-bed.js';

/** Protection and audit of search and the query, across-queue and field routes on a PostgreSQL connection (`confirm`). */
const bed = postgresBed({ SERVICE_POSTGRES_URL_MAIN_PROTECTION: 'confirm' });
const post = (url: string, body: unknown) => bed.call('POST', url, body);
const audit = async (action: string) =>
  (await bed.call('GET', `${bed.app.api}/audit?action=${action}`)).body.events as Array<Record<string, unknown>>;

describe('protection and audit of the search routes on PostgreSQL', () => {
  it('asks removes by query and across queues for confirmName, reads and retries not; each action audited', async () => {
    const queue = await bed.fixture.seed('guarded', { failed: 3 });
    expect((await bed.call('GET', bed.queueUrl('guarded', '/search?q=seeded&in=failedReason'))).body.jobs).toHaveLength(
      3,
    );
    const remove = (body: Record<string, unknown>) =>
      post(bed.queueUrl('guarded', '/jobs/remove'), { query: { q: 'seeded', in: ['failedReason'] }, ...body });
    const refused = await remove({});
    expect(refused).toMatchObject({ status: 403, body: { code: 'CONNECTION_PROTECTED' } });
    expect(await queue.getJobCounts('failed')).toMatchObject({ failed: 3 });
    expect((await audit('jobs.remove'))[0]).toMatchObject({ outcome: 'denied', errorCode: 'CONNECTION_PROTECTED' });
    const [first] = await queue.getFailed();
    const retried = await post(bed.queueUrl('guarded', '/jobs/retry'), { query: { q: first!.id, in: ['id'] } });
    expect(retried.body).toMatchObject({ succeeded: 1 });
    expect((await audit('jobs.retry'))[0]).toMatchObject({ outcome: 'success' });
    expect((await remove({ confirmName: 'guarded' })).body).toMatchObject({ succeeded: 2, done: true });
    expect((await audit('jobs.remove'))[0]).toMatchObject({ outcome: 'success' });
    const across = (body: Record<string, unknown>) =>
      post(`${bed.app.api}/c/main/jobs/remove`, { status: 'waiting', queues: { include: ['guarded'] }, ...body });
    expect((await across({})).body.code).toBe('CONNECTION_PROTECTED');
    expect((await across({ confirmName: 'main' })).body).toMatchObject({ succeeded: 1, done: true });
    expect(await queue.getJobCounts('failed', 'waiting')).toMatchObject({ failed: 0, waiting: 0 });
  });
});
