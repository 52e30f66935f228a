import type { JobStatus } from '../../contracts/jobs.js';
import type { ParsedJobKey } from '../bullmq/job-key.js';
import type { QueueRef } from '../bullmq/queue-key.js';
import type { FailuresRead, FailureWindow } from '../bullmq/read-failures.js';
import type { FinishedJob, FinishedJobsRead } from '../bullmq/read-finished-jobs.js';
import type { JobChildrenRead } from '../bullmq/read-job-children.js';
import type { JobDetailRead, ReadJobDetailOptions } from '../bullmq/read-job-detail.js';
import type { JobFieldRead, ReadJobFieldOptions } from '../bullmq/read-job-field.js';
import type { JobLogsRead, ReadJobLogsOptions } from '../bullmq/read-job-logs.js';
import type { JobPageRead, JobPageRequest } from '../bullmq/read-job-page.js';
import type { ChunkFrom, JobFieldValues, StatusChunk } from '../bullmq/search-reads.js';
import type { Queue } from 'bullmq';
import { DetailBatches } from './detail-batches.js';
import { failuresPage, finishedJobsSince } from './postgres-finished-reads.js';
import { jobChildren } from './postgres-job-children.js';
import { readField } from './postgres-job-field.js';
import { readDetail, readLogs, readPage } from './postgres-job-reads.js';
import { replaceStacktraces } from './postgres-job-writes.js';
import { jobFields, jobNameAt, parsePostgresJobKey, statusChunk } from './postgres-search.js';
import { PostgresStoreBase } from './postgres-store-base.js';

/**
 * A PostgreSQL store's job reads (pages, detail, logs, search chunks, fields, the tree) and its
 * triage (failures, stack traces, finished jobs for insights): SQL in the modules named.
 */
export abstract class PostgresJobReads extends PostgresStoreBase {
  /** Job detail reads that arrive together share one statement. */
  private readonly details = new DetailBatches();

  async readJobPage(request: JobPageRequest): Promise<JobPageRead> {
    return readPage(await this.db(), this.handle.schema, request, this.large);
  }

  async readJobDetail(options: ReadJobDetailOptions): Promise<JobDetailRead> {
    return readDetail(await this.db(), this.handle.schema, options, this.details);
  }

  async readJobLogs(options: ReadJobLogsOptions): Promise<JobLogsRead> {
    return readLogs(await this.db(), this.handle.schema, options);
  }

  async statusChunk(queue: Queue, status: JobStatus, from: ChunkFrom, size: number): Promise<StatusChunk> {
    return statusChunk(await this.db(), queue.name, status, from, size);
  }

  async jobFields(queue: Queue, ids: readonly string[], fields: readonly string[]): Promise<JobFieldValues> {
    return jobFields(await this.db(), queue.name, ids, fields);
  }

  parseJobKey(key: string): ParsedJobKey {
    return parsePostgresJobKey(this.handle.schema, key);
  }

  async jobNameAt(key: string): Promise<string | null> {
    return jobNameAt(await this.db(), this.handle.schema, key);
  }

  async readJobField(options: ReadJobFieldOptions): Promise<JobFieldRead> {
    return readField(await this.db(), this.handle.schema, options);
  }

  async readFailures(ref: QueueRef, window: FailureWindow): Promise<FailuresRead> {
    return failuresPage(await this.db(), ref.name, window);
  }

  async setStacktraces(ref: QueueRef, jobId: string, traces: string[]): Promise<void> {
    await replaceStacktraces(await this.db(), ref.name, jobId, traces);
  }

  async finishedJobs(
    ref: QueueRef,
    state: FinishedJob['state'],
    from: number,
    limit: number,
  ): Promise<FinishedJobsRead> {
    return finishedJobsSince(await this.db(), ref.name, state, from, limit);
  }

  async readJobChildren(ref: QueueRef, jobId: string, limit: number): Promise<JobChildrenRead> {
    return jobChildren(await this.db(), this.handle.schema, ref.name, jobId, limit);
  }
}
