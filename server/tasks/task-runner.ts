import { randomUUID } from 'node:crypto';
import { readOnlyMessage } from '../auth/connection-protection.js';
import type { Logger } from '../logger.js';
import { Task, type TaskRow } from '../persistence/entities/task.js';
import type { Persistence } from '../persistence/persistence.js';
import type { ConnectionCatalog } from '../stores/connection-catalog.js';
import { isStoreUnavailable } from '../stores/store-errors.js';
import type { StoreRegistry } from '../stores/store-registry.js';
import { claimTask } from './task-claim.js';
import { publishTaskEvent } from './task-events.js';
import type { TaskContext, TaskHandler } from './task-handler.js';
import { jobsPerProgress, RecordGate, Throttle } from './throttle.js';

export interface TaskRunnerDeps {
  persistence: Persistence;
  connections: ConnectionCatalog;
  stores: StoreRegistry;
  logger: Logger;
}

export interface TaskRunnerOptions {
  pollMs?: number;
  /** A replica that stops renewing loses the task this long after its last renewal. */
  leaseTtlMs?: number;
}

const storeRetryMs = 10_000;

/**
 * Runs background tasks, one at a time per replica and each in exactly one replica: a task is
 * claimed by a conditional update of its lease (only when free or expired), the lease is renewed
 * with every batch and by a heartbeat, and a replica that dies loses it `leaseTtlMs` later.
 */
export class TaskRunner {
  readonly holder = randomUUID();
  private handlers = new Map<string, TaskHandler>();
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<unknown> | undefined;
  private stopping = false;
  private readonly pollMs: number;
  private readonly leaseTtlMs: number;

  constructor(
    private readonly deps: TaskRunnerDeps,
    options: TaskRunnerOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 1000;
    this.leaseTtlMs = options.leaseTtlMs ?? 60_000;
  }

  useHandlers(handlers: TaskHandler[]): void {
    this.handlers = new Map(handlers.map((handler) => [handler.kind, handler]));
  }

  start(): void {
    this.stopping = false;
    this.timer = setInterval(() => void this.runOnce(), this.pollMs);
    this.timer.unref();
  }

  /** Claims one due task and runs it until it ends, is cancelled or the runner stops; false when none was due. */
  async runOnce(): Promise<boolean> {
    if (this.current || this.stopping) return false;
    const run = claimTask(this.deps, this.holder, this.leaseTtlMs).then((task) =>
      task ? this.run(task).then(() => true) : false,
    );
    this.current = run;
    try {
      return await run;
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'task runner round failed');
      return false;
    } finally {
      this.current = undefined;
    }
  }

  /** A task was just created: claim it now rather than at the next poll (only once started, and when idle). */
  wake(): void {
    if (this.timer && !this.stopping) setImmediate(() => void this.runOnce());
  }

  /** Stops taking tasks; a running one stops after its batch and is left for the next start (or replica). */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    await this.current?.catch(() => undefined);
  }

  private async run(task: TaskRow): Promise<void> {
    const em = this.deps.persistence.fork();
    const mine = { id: task.id, leaseHolder: this.holder, state: 'running' as const };
    const handler = this.handlers.get(task.kind);
    const connection = await this.deps.connections.find(task.connectionId);
    if (!handler || !connection)
      return void (await em.nativeUpdate(
        Task,
        mine,
        ended('failed', { error: handler ? 'the connection was removed' : `no handler for ${task.kind}` }),
      ));
    if (connection.protection === 'read-only')
      return void (await em.nativeUpdate(
        Task,
        mine,
        ended('failed', { error: readOnlyMessage(connection, 'the task was stopped') }),
      ));
    const store = this.deps.stores.handle(connection);
    let processed = task.processed;
    let interrupted = false;
    const throttle = new Throttle(task.maxPerSecond);
    const gate = new RecordGate(task.maxPerSecond);
    const heartbeat = setInterval(
      () =>
        void em
          .fork()
          .nativeUpdate(Task, mine, { leaseExpiresAt: Date.now() + this.leaseTtlMs })
          .catch(() => undefined),
      this.leaseTtlMs / 4,
    );
    const context: TaskContext = {
      taskId: task.id,
      params: task.params,
      cursor: task.cursor ?? null,
      queueName: task.queueName ?? null,
      store,
      openStore: async (connectionId) => {
        const other = await this.deps.connections.find(connectionId);
        if (!other) throw new Error(`connection ${connectionId} was removed`);
        if (other.protection === 'read-only') throw new Error(readOnlyMessage(other, 'the task was stopped'));
        return this.deps.stores.handle(other);
      },
      firstStartedAt: (task.startedAt ?? new Date()).getTime(),
      batchSize: Math.min(1000, task.maxPerSecond ?? 1000),
      jobsPerProgress: jobsPerProgress(task.maxPerSecond),
      progress: async (count, cursor, total) => {
        processed += count;
        throttle.add(count);
        // Between records the count is kept here; the run's end writes it whatever the gate said.
        if (!gate.due(total !== undefined, this.stopping)) return true;
        const changes = {
          processed,
          cursor,
          leaseExpiresAt: Date.now() + this.leaseTtlMs,
          ...(total === undefined ? {} : { total }),
        };
        // A connection made read-only stops its tasks: let go here, and the next claim fails the task saying why.
        const writable = (await this.deps.connections.find(task.connectionId))?.protection !== 'read-only';
        const kept = (await em.fork().nativeUpdate(Task, mine, changes)) === 1 && !this.stopping && writable;
        if (!kept) interrupted = true;
        gate.recorded(total !== undefined);
        if (kept)
          void publishTaskEvent(store, task, { state: 'running', processed, total: total ?? task.total ?? null });
        return kept;
      },
      throttle: () => throttle.wait(),
    };
    try {
      const result = await handler.run(context);
      // The last batch's share of time too: a task at `maxPerSecond` never ends sooner than its rate allows.
      if (!interrupted) await throttle.wait();
      if (interrupted) {
        // Cancelled, stopping or outlived: let go, so a stopped task resumes at once elsewhere.
        await em
          .fork()
          .nativeUpdate(Task, { id: task.id, leaseHolder: this.holder }, { leaseHolder: null, leaseExpiresAt: null });
        return;
      }
      const done = await em.fork().nativeUpdate(Task, mine, ended('done', { result, processed }));
      if (done === 1) void publishTaskEvent(store, task, { state: 'done', processed, total: task.total ?? null });
    } catch (error) {
      if (isStoreUnavailable(error)) {
        // Leave it running; whoever polls after the store is back resumes it from its cursor.
        await em.fork().nativeUpdate(Task, mine, { leaseExpiresAt: Date.now() + storeRetryMs });
      } else {
        this.deps.logger.warn({ err: error, taskId: task.id }, 'task failed');
        await em
          .fork()
          .nativeUpdate(Task, mine, ended('failed', { error: error instanceof Error ? error.message : String(error) }));
      }
    } finally {
      clearInterval(heartbeat);
    }
  }
}

const ended = (state: 'done' | 'failed', fields: Partial<TaskRow>) => ({
  state,
  finishedAt: new Date(),
  leaseHolder: null,
  leaseExpiresAt: null,
  ...fields,
});
