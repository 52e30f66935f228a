import type { StoreHandle } from '../stores/store-handle.js';

/** What a task's handler gets: its request, where it stopped last time, and the hooks that keep it honest. */
export interface TaskContext {
  taskId: string;
  params: Record<string, unknown>;
  /** Where a previous run of the task stopped (null on the first run). */
  cursor: Record<string, unknown> | null;
  queueName: string | null;
  store: StoreHandle;
  /** Another connection's store (a move's target), checked for the task's creator when the task was made. */
  openStore(connectionId: string): Promise<StoreHandle>;
  /** When the task first started (epoch ms): "jobs finished before the task" stays one set across restarts. */
  firstStartedAt: number;
  /** Jobs per batch (per script call at most): at most 1,000, and at most `maxPerSecond`. */
  batchSize: number;
  /** Jobs to act on between two `progress` calls where the handler can (several calls of `batchSize`). */
  jobsPerProgress: number;
  /**
   * Records `processed` more jobs and the resume point after a batch, renewing the lease; false
   * when the task was cancelled, lost its lease or the runner is stopping: return at once then.
   * Unthrottled, the database sees at most one record a second (RecordGate); the rest are counted.
   */
  progress(processed: number, cursor: Record<string, unknown> | null, total?: number | null): Promise<boolean>;
  /** Sleeps as long as `maxPerSecond` asks, given everything processed so far in this run. */
  throttle(): Promise<void>;
}

export interface TaskHandler {
  /** `jobs.retry`, `jobs.remove`, `queues.purge`, `jobs.move`, … (the permission it was created under). */
  kind: string;
  /** Runs (or resumes) the task; resolves with its result once everything is done. */
  run(context: TaskContext): Promise<Record<string, unknown>>;
}
