import { PlatformMigration } from './platform-migration.js';

/**
 * Background tasks (bulk actions and purges run with `async: true`): their request, progress and
 * resume point, and the lease of the replica running one (`lease_expires_at`, epoch ms), so that
 * exactly one replica runs a task and another takes it over when that one dies.
 */
export class Migration0009Tasks extends PlatformMigration {
  protected statements() {
    return {
      sqlite: [
        'create table `task` (`id` text not null primary key, `organization_id` text not null, `connection_id` text not null, `kind` text not null, `queue_name` text null, `params` text not null, `state` text not null, `processed` integer not null, `total` integer null, `max_per_second` integer null, `cursor` text null, `result` text null, `error` text null, `lease_holder` text null, `lease_expires_at` integer null, `created_by` text not null, `created_at` datetime not null, `started_at` datetime null, `finished_at` datetime null);',
        'create index `task_connection_created_index` on `task` (`connection_id`, `created_at`);',
        'create index `task_state_index` on `task` (`state`);',
      ],
      postgresql: [
        'create table "task" ("id" varchar(36) not null primary key, "organization_id" varchar(36) not null, "connection_id" varchar(200) not null, "kind" varchar(50) not null, "queue_name" text null, "params" jsonb not null, "state" varchar(20) not null, "processed" bigint not null, "total" bigint null, "max_per_second" integer null, "cursor" jsonb null, "result" jsonb null, "error" text null, "lease_holder" varchar(100) null, "lease_expires_at" bigint null, "created_by" jsonb not null, "created_at" timestamptz not null, "started_at" timestamptz null, "finished_at" timestamptz null);',
        'create index "task_connection_created_index" on "task" ("connection_id", "created_at");',
        'create index "task_state_index" on "task" ("state");',
      ],
    };
  }
}
