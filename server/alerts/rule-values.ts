import { storeRuleTypes, type AlertRuleType } from '../../contracts/alerts.js';
import type { EntityManager } from '../persistence/orm.js';
import {
  connectionSamples,
  queueSamples,
  type ConnectionSampleData,
  type QueueSampleData,
} from '../history/sample-repository.js';
import { queueSelected } from '../bullmq/queue-globs.js';

export interface RuleSpec {
  type: AlertRuleType;
  threshold: number;
  windowMinutes: number;
  minVolume?: number | null | undefined;
  queues: { include: string[]; exclude: string[] };
}

/** A rule's reading now: per watched queue (or one entry with queueName null for store rules). */
export interface RuleReading {
  threshold: number;
  subjects: Array<{ queueName: string | null; value: number; firing: boolean }>;
}

const n = (value: unknown) => Number(value ?? 0);

/**
 * Reads a rule against the raw samples of its window. "For the whole window" rules (backlog,
 * store_down, and stalled's no-completion form) need samples covering it: the first one no later
 * than one and a half sample intervals after the window starts.
 */
export async function readRule(
  em: EntityManager,
  connectionId: string,
  rule: RuleSpec,
  now: number,
  sampleIntervalMs: number,
): Promise<RuleReading> {
  const windowStart = now - rule.windowMinutes * 60_000;
  const window = { connectionId, resolution: 'raw', from: windowStart, to: now, toInclusive: true } as const;
  const covered = (rows: ReadonlyArray<{ at: number }>) =>
    rows.length > 0 && n(rows[0]!.at) <= windowStart + 1.5 * sampleIntervalMs;
  if (storeRuleTypes.includes(rule.type)) {
    const rows = await connectionSamples(em, window);
    return { threshold: rule.threshold, subjects: [storeSubject(rule, rows, covered(rows), sampleIntervalMs)] };
  }
  const rows = await queueSamples(em, window);
  const byQueue = new Map<string, QueueSampleData[]>();
  for (const row of rows) {
    const name = String(row.queueName);
    if (queueSelected(name, rule.queues)) byQueue.set(name, [...(byQueue.get(name) ?? []), row]);
  }
  const threshold = rule.type === 'stalled' ? rule.windowMinutes * 60 : rule.threshold;
  const subjects = [...byQueue].map(([queueName, queueRows]) => ({
    queueName,
    ...queueSubject(rule, queueRows, covered(queueRows)),
  }));
  return { threshold, subjects };
}

function queueSubject(rule: RuleSpec, rows: QueueSampleData[], covered: boolean): { value: number; firing: boolean } {
  const total = (field: 'failedDelta' | 'completedDelta') => rows.reduce((sum, row) => sum + n(row[field]), 0);
  const latest = rows.at(-1)!;
  switch (rule.type) {
    case 'failed_count': {
      const value = total('failedDelta');
      return { value, firing: value >= rule.threshold };
    }
    case 'failure_rate': {
      const finished = total('failedDelta') + total('completedDelta');
      const value = finished === 0 ? 0 : (100 * total('failedDelta')) / finished;
      return { value, firing: finished >= Math.max(1, rule.minVolume ?? 1) && value >= rule.threshold };
    }
    case 'backlog': {
      const value = Math.min(...rows.map((row) => n(row.waiting)));
      return { value, firing: covered && value >= rule.threshold };
    }
    default: {
      const value = n(latest.oldestWaitingSeconds);
      const stuck = covered && n(latest.waiting) > 0 && total('completedDelta') === 0;
      return { value, firing: value >= rule.windowMinutes * 60 || stuck };
    }
  }
}

function storeSubject(
  rule: RuleSpec,
  rows: ConnectionSampleData[],
  covered: boolean,
  sampleIntervalMs: number,
): { queueName: null; value: number; firing: boolean } {
  if (rule.type === 'store_down') {
    const down = rows.filter((row) => n(row.up) === 0).length;
    return {
      queueName: null,
      value: Math.round((down * sampleIntervalMs) / 60_000),
      firing: covered && rows.length > 0 && down === rows.length,
    };
  }
  const latest = rows.at(-1);
  const max = n(latest?.maxMemory);
  const value = latest && max > 0 ? (100 * n(latest.usedMemory)) / max : 0;
  return { queueName: null, value, firing: value >= rule.threshold };
}
