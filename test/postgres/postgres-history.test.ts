import { describe, expect, it } from 'vitest';
import { postgresBed } from '../helpers/postgres-bed.js';

/** The history samples a PostgreSQL connection as a Redis one: counts, finished-since, the store up. */
const bed = postgresBed({ SERVICE_SAMPLE_INTERVAL_SECONDS: '5' });

describe('history on PostgreSQL', () => {
  it('records queue counts and what finished since the previous sample; the store counts as up', async () => {
    await bed.fixture.seed('emails', { completed: 3, failed: 2, waiting: 4, prioritized: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await bed.app.services.history.sampleOnce();
    const emails = await bed.call('GET', bed.queueUrl('emails', '/history?points=500'));
    expect(emails.status).toBe(200);
    expect(emails.body.points).toHaveLength(1);
    expect(emails.body.points[0]).toMatchObject({
      waiting: 5,
      failed: 2,
      completed: 3,
      completedDelta: 3,
      failedDelta: 2,
      active: 0,
      paused: false,
    });
    expect(emails.body.points[0].oldestWaitingSeconds).toBeGreaterThanOrEqual(1);
    const connection = await bed.call('GET', `${bed.app.api}/c/main/history?points=500`);
    expect(connection.status).toBe(200);
    expect(connection.body.points.at(-1)).toMatchObject({ up: true, queues: 1, waiting: 5, usedMemory: null });
  });
});
