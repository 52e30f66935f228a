import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalTableSql } from '../../server/postgres/move-journal.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { postgresAdminUrl, queryDatabase } from '../helpers/postgres.js';
import { postgresQueueFixture, type PostgresQueueFixture } from '../helpers/postgres-queues.js';
import { storeFixture } from '../helpers/stores.js';

/**
 * A PostgreSQL connection whose role may use BullMQ's tables but not create one: the first move
 * into it cannot create Bullpen's move journal, so it answers 400 MOVE_JOURNAL_MISSING and moves
 * nothing; once a DBA created the table (the statement docs/api.md shows), the move goes through.
 */
describe('a move into a PostgreSQL connection that may not create the move journal', () => {
  const redis = storeFixture();
  const role = `bullpen_mover_${randomBytes(4).toString('hex')}`;
  let pg: PostgresQueueFixture;
  let app: TestApp;
  let source: Queue;
  beforeAll(async () => {
    pg = await postgresQueueFixture();
    await queryDatabase(postgresAdminUrl, `CREATE ROLE ${role} LOGIN`);
    await queryDatabase(
      pg.database.url,
      `REVOKE CREATE ON SCHEMA bullmq FROM PUBLIC; GRANT USAGE ON SCHEMA bullmq TO ${role};
       GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA bullmq TO ${role};
       GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA bullmq TO ${role}`,
    );
    const url = new URL(pg.database.url);
    url.username = role;
    app = await bootApp({ env: { ...redis.env, SERVICE_POSTGRES_URL_PG: url.toString() } });
    source = new Queue('outbox', redis.bullmq);
  }, 60_000);
  afterAll(async () => {
    await source?.close();
    await app?.close();
    await pg?.cleanup();
    await queryDatabase(postgresAdminUrl, `DROP ROLE IF EXISTS ${role}`);
    await redis.cleanup();
  });
  const move = (jobIds: string[]) =>
    request(`${app.api}/c/main/queues/outbox/jobs/move`, {
      method: 'POST',
      body: { to: { connectionId: 'pg', queueName: 'outbox' }, jobIds },
    });

  it('answers 400 MOVE_JOURNAL_MISSING and moves nothing; moves once the table is there', async () => {
    const job = await source.add('mail', { n: 1 });
    const refused = await move([job.id!]);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'MOVE_JOURNAL_MISSING', connectionId: 'pg', schema: 'bullmq' });
    expect(await source.getWaitingCount()).toBe(1);
    expect(await pg.queue('outbox').getWaitingCount()).toBe(0);

    await queryDatabase(
      pg.database.url,
      `SET search_path = bullmq; ${journalTableSql}; GRANT SELECT, INSERT, DELETE ON bullpen_move_journal TO ${role}`,
    );
    expect((await move([job.id!])).body).toMatchObject({ succeeded: 1, failed: 0 });
    expect(await pg.queue('outbox').getWaitingCount()).toBe(1);
  });
});
