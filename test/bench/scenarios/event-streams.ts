import http from 'node:http';
import type { Redis } from 'ioredis';
import { cpuMs } from '../cpu.js';
import type { ServerProcess } from '../processes.js';
import { prefix, seedLiveJobs, type BenchConnection } from '../seed.js';
import { report, round } from '../targets.js';

/** One open SSE stream: the events it has received so far, and how to close it. */
interface Stream {
  received(): number;
  close(): void;
}

/** Opens the events route of `queue` and counts the events (`event:` lines) that arrive. */
function openStream(url: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false }, (response) => {
      if (response.statusCode !== 200) return reject(new Error(`${url}: ${response.statusCode}`));
      let count = 0;
      let carry = '';
      let opened = false;
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const text = carry + chunk;
        const blocks = text.split('\n\n');
        carry = blocks.pop() ?? '';
        for (const block of blocks) if (block.includes('\nevent: ')) count++;
        // The subscription comment comes first: the stream is live from here.
        if (!opened) {
          opened = true;
          resolve({ received: () => count, close: () => request.destroy() });
        }
      });
    });
    request.on('error', (error) => {
      if (!('code' in error && error.code === 'ECONNRESET')) reject(error);
    });
  });
}

const xreadCalls = async (redis: Redis) =>
  Number(/cmdstat_xread:calls=(\d+)/.exec(await redis.info('commandstats'))?.[1] ?? 0);

/** XADDs `perQueue` `waiting` events into each queue's stream, in rounds of 10 per queue every 20 ms. */
async function produce(redis: Redis, queues: string[], perQueue: number): Promise<void> {
  for (let sent = 0; sent < perQueue; sent += 10) {
    const pipeline = redis.pipeline();
    for (const queue of queues)
      for (let i = sent; i < Math.min(perQueue, sent + 10); i++)
        pipeline.xadd(`${prefix}:${queue}:events`, '*', 'event', 'waiting', 'jobId', String(i), 'prev', 'added');
    await pipeline.exec();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Phase {
  streams: number;
  delivered: number;
  cpuMs: number;
  xreads: number;
  rssGrowthMb: number;
}

/** Opens `perQueue` streams on each queue, produces `events` per queue, waits until each stream has them all. */
async function phase(
  bullpen: ServerProcess,
  redis: Redis,
  base: string,
  queues: string[],
  perQueue: number,
  events: number,
): Promise<Phase> {
  const rssBefore = await bullpen.rssMb();
  const streams: Stream[] = [];
  for (const queue of queues)
    for (let i = 0; i < perQueue; i++) streams.push(await openStream(`${base}/queues/${queue}/events`));
  await redis.call('CONFIG', 'RESETSTAT');
  const cpuBefore = await cpuMs(bullpen.pid);
  await produce(redis, queues, events);
  const expected = streams.length * events;
  const deadline = Date.now() + 120_000;
  const delivered = () => streams.reduce((sum, stream) => sum + stream.received(), 0);
  while (delivered() < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const result = {
    streams: streams.length,
    delivered: delivered(),
    cpuMs: (await cpuMs(bullpen.pid)) - cpuBefore,
    xreads: await xreadCalls(redis),
    rssGrowthMb: (await bullpen.rssMb()) - rssBefore,
  };
  for (const stream of streams) stream.close();
  await new Promise((resolve) => setTimeout(resolve, 500));
  return result;
}

/**
 * Issue 36 item 4: `queues` queues, first one stream each (the floor: one reader per queue), then
 * `streams` streams spread over them on one Bullpen process: CPU per event delivered, RSS growth, and
 * the XREADs the hub sends (Redis's commandstats on the bench's own server), which should not grow
 * with the subscribers.
 */
export async function eventStreamsScenario(
  bullpen: ServerProcess,
  connectionId: string,
  redis: Redis,
  connection: BenchConnection,
  { queues: queueCount, streams, events }: { queues: number; streams: number; events: number },
): Promise<void> {
  const queues = Array.from({ length: queueCount }, (_, i) => `live-${i}`);
  for (const queue of queues) await seedLiveJobs(connection, queue);
  const base = `${bullpen.url}/api/c/${connectionId}`;
  const single = await phase(bullpen, redis, base, queues, 1, events);
  const many = await phase(bullpen, redis, base, queues, streams / queueCount, events);
  const perThousand = (result: Phase) => round((result.cpuMs * 1000) / Math.max(1, result.delivered));
  report(
    '36.4 streams',
    `${many.streams} SSE streams on ${queueCount} queues, ${events} events a queue: events delivered (expected)`,
    `${many.delivered} (${many.streams * events})`,
    'all',
    many.delivered === many.streams * events,
  );
  report(
    '36.4 streams',
    `server CPU ms per 1,000 events delivered: ${many.streams} streams (${single.streams}, one a queue)`,
    `${perThousand(many)} (${perThousand(single)})`,
    'reported',
  );
  report(
    '36.4 streams',
    `RSS growth with ${many.streams} streams open through the events`,
    `${many.rssGrowthMb} MiB`,
    '≤ 150 MiB',
    many.rssGrowthMb <= 150,
  );
  report(
    '36.4 streams',
    `XREAD calls while the events flowed: ${many.streams} streams (${single.streams}, one a queue)`,
    `${many.xreads} (${single.xreads}; ${round(many.xreads / Math.max(1, single.xreads))}×)`,
    '≤ 1.5× one a queue',
    many.xreads <= 1.5 * single.xreads,
  );
}
