import { PlatformMigration } from './platform-migration.js';

const percentileColumns = [
  'processing_p50_ms',
  'processing_p95_ms',
  'processing_p99_ms',
  'wait_p50_ms',
  'wait_p95_ms',
  'wait_p99_ms',
];

/**
 * Latency in the queue history: per sample, the jobs measured and the p50/p95/p99 of their processing
 * and wait times in milliseconds (null when nothing finished; rows sampled before stay null).
 */
export class Migration0012HistoryLatency extends PlatformMigration {
  protected statements() {
    return {
      sqlite: [
        'alter table `queue_sample` add column `latency_jobs` integer not null default 0;',
        ...percentileColumns.map((column) => `alter table \`queue_sample\` add column \`${column}\` integer null;`),
      ],
      postgresql: [
        `alter table "queue_sample" add column "latency_jobs" integer not null default 0, ${percentileColumns.map((column) => `add column "${column}" bigint null`).join(', ')};`,
      ],
    };
  }
}
