import { Queue, Worker, createPostgresBackend } from 'bullmq';
import type { Redis } from 'ioredis';
import { deleteKeysMatching } from '../../helpers/stores.js';

/** The template's job ids: one per state the mutating routes act on. */
export const templateJobs = { failed: 'f1', completed: 'c1', waiting: 'w1', delayed: 'd1', prioritized: 'p1' } as const;
export const templateScheduler = 's1';
/** Text every template job carries in its data: the query forms of bulk actions find them by it. */
export const templateTag = 'matrix';

/**
 * One queue in every state a mutating route acts on, built once through real
 * BullMQ (a Worker fails `f1` with a log line and a stack trace, completes
 * `c1`), then copied key by key (DUMP/RESTORE) under a fresh name for each
 * case: a case that changes its queue never changes another's.
 */
export class QueueTemplate {
  private keys: Array<{ suffix: string; dump: Buffer; ttl: number }> = [];

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly name = 'tpl',
  ) {}

  async build(): Promise<void> {
    const options = { connection: { host: '127.0.0.1', port: 6379, db: 0 }, prefix: this.prefix };
    const queue = new Queue(this.name, options);
    await queue.add('fails', { tag: templateTag, fail: true }, { jobId: templateJobs.failed });
    await queue.add('succeeds', { tag: templateTag }, { jobId: templateJobs.completed });
    const worker = new Worker(
      this.name,
      async (job) => {
        await job.log(`tried ${job.id}`);
        if (job.data.fail) throw new Error('matrix failure');
      },
      { ...options, autorun: false },
    );
    const settled = new Promise<void>((resolve) => {
      let count = 0;
      const settle = () => ++count === 2 && resolve();
      worker.on('completed', settle).on('failed', settle);
    });
    void worker.run();
    await settled;
    await worker.close();
    await queue.add('waits', { tag: templateTag }, { jobId: templateJobs.waiting });
    await queue.add('later', { tag: templateTag }, { jobId: templateJobs.delayed, delay: 3_600_000 });
    await queue.add('urgent', { tag: templateTag }, { jobId: templateJobs.prioritized, priority: 5 });
    await queue.upsertJobScheduler(
      templateScheduler,
      { every: 3_600_000 },
      { name: 'tick', data: { tag: templateTag } },
    );
    await queue.close();
    await this.capture();
  }

  private async capture(): Promise<void> {
    const base = `${this.prefix}:${this.name}:`;
    const names = await this.redis.keys(`${base}*`);
    const pipeline = this.redis.pipeline();
    for (const key of names) pipeline.dumpBuffer(key).pttl(key);
    const replies = (await pipeline.exec())!.map(([, value]) => value);
    this.keys = names.map((key, index) => ({
      suffix: key.slice(base.length),
      dump: replies[index * 2] as Buffer,
      ttl: Math.max(0, replies[index * 2 + 1] as number),
    }));
  }

  /** A copy of the template as queue `name` under `prefix` (a connection's). */
  async copyTo(prefix: string, name: string): Promise<void> {
    const pipeline = this.redis.pipeline();
    for (const { suffix, dump, ttl } of this.keys)
      pipeline.restore(`${prefix}:${name}:${suffix}`, ttl, dump, 'REPLACE');
    await pipeline.exec();
  }

  /** The template itself. */
  async removeAll(): Promise<void> {
    await deleteKeysMatching(this.redis, `${this.prefix}:*`);
  }
}

/** The same queue on BullMQ's PostgreSQL backend (`connection`: its connectionString and schema), by a real Worker. */
export async function buildPostgresTemplate(
  connection: { connectionString: string; schema: string },
  name: string,
): Promise<void> {
  const queue = new Queue(name, { connection }, createPostgresBackend);
  await queue.add('fails', { tag: templateTag, fail: true }, { jobId: templateJobs.failed });
  await queue.add('succeeds', { tag: templateTag }, { jobId: templateJobs.completed });
  const worker = new Worker(
    name,
    async (job) => {
      await job.log(`tried ${job.id}`);
      if (job.data.fail) throw new Error('matrix failure');
    },
    { connection },
    createPostgresBackend as never,
  );
  await new Promise<void>((resolve) => {
    let count = 0;
    const settle = () => ++count === 2 && resolve();
    worker.on('completed', settle).on('failed', settle);
  });
  await worker.close();
  await queue.add('waits', { tag: templateTag }, { jobId: templateJobs.waiting });
  await queue.add('later', { tag: templateTag }, { jobId: templateJobs.delayed, delay: 3_600_000 });
  await queue.add('urgent', { tag: templateTag }, { jobId: templateJobs.prioritized, priority: 5 });
  await queue.upsertJobScheduler(templateScheduler, { every: 3_600_000 }, { name: 'tick', data: { tag: templateTag } });
  await queue.close();
}
