/** bull-board's API over PostgreSQL-backed queues (BullMQ 6): one pg Pool shared by every queue, as Bullpen shares one. */
import express from 'express';
import pg from 'pg';
import { Queue, createPostgresBackend } from 'bullmq';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';

const [url, port, names] = process.argv.slice(2) as [string, string, string];
const pool = new pg.Pool({ connectionString: url, options: '-c search_path=bullmq' });
const serverAdapter = new ExpressAdapter();
serverAdapter.setBasePath('/ui');
createBullBoard({
  queues: names
    .split(',')
    .map((name) => new BullMQAdapter(new Queue(name, { connection: pool } as never, createPostgresBackend as never))),
  serverAdapter,
});
const app = express();
app.use('/ui', serverAdapter.getRouter());
app.listen(Number(port), '127.0.0.1');
