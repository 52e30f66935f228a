import { PlatformMigration } from './platform-migration.js';

/**
 * Answers kept for `Idempotency-Key` retries (job add, task creation): one row per organization,
 * route, actor and key (hashed into `id`), its request's hash, and the first answer once there is
 * one; swept after `expires_at` (epoch ms, 24 hours after the first request).
 */
export class Migration0015IdempotencyKeys extends PlatformMigration {
  protected statements() {
    return {
      sqlite: [
        'create table `idempotency_record` (`id` text not null primary key, `organization_id` text not null, `route` text not null, `request_hash` text not null, `status` integer null, `body` text null, `created_at` integer not null, `expires_at` integer not null);',
        'create index `idempotency_record_expires_at_index` on `idempotency_record` (`expires_at`);',
      ],
      postgresql: [
        'create table "idempotency_record" ("id" varchar(64) not null primary key, "organization_id" varchar(36) not null, "route" varchar(100) not null, "request_hash" varchar(64) not null, "status" integer null, "body" jsonb null, "created_at" bigint not null, "expires_at" bigint not null);',
        'create index "idempotency_record_expires_at_index" on "idempotency_record" ("expires_at");',
      ],
    };
  }
}
