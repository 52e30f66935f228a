/**
 * The floor: plain express routes calling BullMQ directly, with the queue
 * names known in advance (no discovery), no validation, no auth, no logging.
 */
import express from 'express';
import type { JobType, Queue } from 'bullmq';
import { manyQueueNames, queueOpener, serverArguments } from './shared.js';

const { redisPort, port, queueCount } = serverArguments();
const openQueue = queueOpener(redisPort);
const queues = new Map<string, Queue>();
const queue = (name: string) => {
  let found = queues.get(name);
  if (!found) {
    found = openQueue(name);
    queues.set(name, found);
  }
  return found;
};
const names = manyQueueNames(queueCount);

const app = express();
app.get('/queues', async (req, res) => {
  const page = Number(req.query.page ?? 1);
  const pageSize = Number(req.query.pageSize ?? 50);
  const slice = names.slice((page - 1) * pageSize, page * pageSize);
  const counts = await Promise.all(slice.map((name) => queue(name).getJobCounts()));
  res.json({ queues: slice.map((name, index) => ({ name, jobCounts: counts[index] })), total: names.length });
});
app.get('/queues/:name/jobs', async (req, res) => {
  const status = String(req.query.status ?? 'completed') as JobType;
  const pageSize = Number(req.query.pageSize ?? 50);
  const jobs = await queue(req.params.name).getJobs([status], 0, pageSize - 1);
  res.json({ jobs: jobs.map((job) => job.asJSON()) });
});
app.get('/queues/:name/jobs/:id', async (req, res) => {
  const job = await queue(req.params.name).getJob(req.params.id);
  if (!job) return void res.status(404).json({ message: 'not found' });
  res.json({ ...job.asJSON(), state: await job.getState() });
});
app.get('/queues/:name/jobs/:id/logs', async (req, res) => {
  res.json(await queue(req.params.name).getJobLogs(req.params.id, 0, 99, true));
});
app.get('/mode', (_req, res) => void res.json({ auth: 'authless', persistence: 'embedded', connections: 'env' }));
app.listen(port, '127.0.0.1');
