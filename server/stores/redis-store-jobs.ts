import type { Queue } from 'bullmq';
import { queueKey, type QueueRef } from '../bullmq/queue-key.js';
import { readJobDetail, type JobDetailRead, type ReadJobDetailOptions } from '../bullmq/read-job-detail.js';
import { readJobLogs, type JobLogsRead, type ReadJobLogsOptions } from '../bullmq/read-job-logs.js';
import { readJobPage, type JobPageRead, type JobPageRequest } from '../bullmq/read-job-page.js';
import { readFailuresPage, type FailuresRead, type FailureWindow } from '../bullmq/read-failures.js';
import { readFinishedJobs, type FinishedJob, type FinishedJobsRead } from '../bullmq/read-finished-jobs.js';
import { readJobChildren, type JobChildrenRead } from '../bullmq/read-job-children.js';
import type { EventFeed, StoreEventListener } from '../events/event-feed.js';
import { openRedisEventFeed } from '../events/redis-event-feed.js';
import type { JobStatus } from '../../contracts/jobs.js';
import {
  redisJobFields,
  redisStatusChunk,
  type ChunkFrom,
  type JobFieldValues,
  type StatusChunk,
} from '../bullmq/search-reads.js';
import { parseJobKey, type ParsedJobKey } from '../bullmq/job-key.js';
import { readJobField, type JobFieldRead, type ReadJobFieldOptions } from '../bullmq/read-job-field.js';
import type { StoreMoveEnds } from '../bullmq/move-across-stores.js';
import { redisStoreMoveEnds } from '../bullmq/redis-store-move-ends.js';
import { RedisStoreBase } from './redis-store-base.js';

/** A Redis store's reads and writes of single jobs, job pages, failures, events and job fields: the service's Lua scripts (server/bullmq/). */
export class RedisStoreJobs extends RedisStoreBase {
  readJobPage(request: JobPageRequest): Promise<JobPageRead> {
    return readJobPage(this.client, request);
  }

  readJobDetail(options: ReadJobDetailOptions): Promise<JobDetailRead> {
    return readJobDetail(this.client, options);
  }

  readJobLogs(options: ReadJobLogsOptions): Promise<JobLogsRead> {
    return readJobLogs(this.client, options);
  }

  readFailures(ref: QueueRef, window: FailureWindow): Promise<FailuresRead> {
    return readFailuresPage(this.client, ref, window);
  }

  async setStacktraces(ref: QueueRef, jobId: string, traces: string[]): Promise<void> {
    await this.client.hset(queueKey(ref, jobId), 'stacktrace', JSON.stringify(traces));
  }

  finishedJobs(ref: QueueRef, state: FinishedJob['state'], from: number, limit: number): Promise<FinishedJobsRead> {
    return readFinishedJobs(this.client, ref, state, from, limit);
  }

  finishedBefore(ref: QueueRef, status: 'completed' | 'failed', before: number): Promise<number> {
    return this.client.zcount(queueKey(ref, status), '-inf', before);
  }

  async newestFailures(ref: QueueRef, limit: number): Promise<Array<{ jobId: string; failedAt: number }>> {
    const reply = await this.client.zrevrangebyscore(
      queueKey(ref, 'failed'),
      '+inf',
      '-inf',
      'WITHSCORES',
      'LIMIT',
      0,
      limit,
    );
    const failures: Array<{ jobId: string; failedAt: number }> = [];
    for (let index = 0; index < reply.length; index += 2)
      failures.push({ jobId: reply[index]!, failedAt: Number(reply[index + 1]) });
    return failures;
  }

  async readJobChildren(ref: QueueRef, jobId: string, limit: number): Promise<JobChildrenRead> {
    return readJobChildren(this.client, await this.queue(ref.name, ref.prefix), jobId, limit);
  }

  openEventFeed(ref: QueueRef, listener: StoreEventListener): Promise<EventFeed> {
    return openRedisEventFeed(this.client, ref, listener);
  }

  statusChunk(queue: Queue, status: JobStatus, from: ChunkFrom, size: number): Promise<StatusChunk> {
    return redisStatusChunk(this.client, queue, status, from, size);
  }

  jobFields(queue: Queue, ids: readonly string[], fields: readonly string[]): Promise<JobFieldValues> {
    return redisJobFields(this.client, queue, ids, fields);
  }

  parseJobKey(key: string): ParsedJobKey {
    return parseJobKey(this.prefixes, key);
  }

  jobNameAt(key: string): Promise<string | null> {
    return this.client.hget(key, 'name');
  }

  readJobField(options: ReadJobFieldOptions): Promise<JobFieldRead> {
    return readJobField(this.client, options);
  }

  moveEnds(): StoreMoveEnds {
    return redisStoreMoveEnds(this.client);
  }
}
