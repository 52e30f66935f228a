import { describe, expect, it } from 'vitest';
import { storeFixture } from '../helpers/stores.js';
import { postgresBed } from '../helpers/postgres-bed.js';
import { seedQueue } from '../helpers/queues.js';

/** One scrape over a Redis and a PostgreSQL connection side by side. */
const redis = storeFixture({ name: 'cache' });
const bed = postgresBed(redis.env);

describe('GET /api/prometheus with a PostgreSQL connection', () => {
  it('exports both connections: counts, finished totals, backlog and liveness', async () => {
    await bed.fixture.seed('pg-mail', { completed: 2, failed: 1, waiting: 3, prioritized: 1 });
    const redisQueue = await seedQueue(redis.bullmq, 'redis-mail', { waiting: 1 });
    try {
      const response = await fetch(`${bed.app.api}/prometheus`);
      expect(response.status).toBe(200);
      const text = await response.text();
      const tail = 'connection="main",prefix="bullmq"';
      expect(text).toContain(`bullmq_job_count{queue="pg-mail",state="waiting",${tail}} 3`);
      expect(text).toContain(`bullmq_job_count{queue="pg-mail",state="failed",${tail}} 1`);
      expect(text).toContain(`bullpen_queue_backlog{queue="pg-mail",${tail}} 4`);
      expect(text).toContain(`bullpen_queue_paused{queue="pg-mail",${tail}} 0`);
      expect(text).toMatch(
        /bullpen_queue_oldest_waiting_seconds\{queue="pg-mail",connection="main",prefix="bullmq"\} \d+/,
      );
      expect(text).toContain(
        `bullmq_job_count{queue="redis-mail",state="waiting",connection="cache",prefix="${redis.prefix}"} 1`,
      );
      expect(text).toContain('bullpen_store_up{connection="main"} 1');
      expect(text).toContain('bullpen_store_up{connection="cache"} 1');
    } finally {
      await redisQueue.close();
      await redis.cleanup();
    }
  });
});
