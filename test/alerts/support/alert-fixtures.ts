import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'bullmq';
import type { QueueTestBed } from '../../helpers/queues.js';

// What test/alerts/alerts.test.ts fires alerts with and delivers them to.

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on loopback: records every POST, answers 500 to the first `failFirst` of them. */
export function receiver(failFirst = 0) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = received.length <= failFirst ? 500 : 204;
      res.end();
    });
  });
  return {
    received,
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/abc-secret-path`),
        ),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Adds `count` jobs to `queueName` and fails each once through a real Worker. */
export async function failJobs(bed: QueueTestBed, queueName: string, count: number): Promise<void> {
  const queue = bed.openQueue(queueName);
  const worker = new Worker(
    queueName,
    async () => {
      throw new Error('card declined');
    },
    bed.fixture.bullmq,
  );
  bed.closeLater(worker);
  const failed = new Promise<void>((resolve) => {
    let n = 0;
    worker.on('failed', () => ++n === count && resolve());
  });
  await queue.addBulk(Array.from({ length: count }, (_, i) => ({ name: `o${i}`, data: {} })));
  await failed;
  await worker.close();
}
