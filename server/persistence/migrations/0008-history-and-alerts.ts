import { PlatformMigration } from './platform-migration.js';

const sampleColumns = {
  sqlite:
    '`waiting` integer not null, `active` integer not null, `delayed` integer not null, `failed` integer not null, `completed` integer not null, `completed_delta` integer not null, `failed_delta` integer not null, `oldest_waiting_seconds` integer not null, `paused` integer not null, `workers` integer not null',
  postgresql:
    '"waiting" bigint not null, "active" bigint not null, "delayed" bigint not null, "failed" bigint not null, "completed" bigint not null, "completed_delta" bigint not null, "failed_delta" bigint not null, "oldest_waiting_seconds" bigint not null, "paused" integer not null, "workers" integer not null',
};

/**
 * History samples, raw (kept 24 h) and 15-minute roll-ups (kept SERVICE_HISTORY_DAYS), one row per
 * queue and one per connection (its totals and the store's facts, precomputed on write); and leases,
 * so background work runs in one replica at a time. `at` is epoch milliseconds: compared and
 * bucketed as a number on both databases. Alert rules, their events, destinations (URL and
 * secret sealed) and deliveries; one delivery per destination and event id, enforced by a unique index.
 */
export class Migration0008HistoryAndAlerts extends PlatformMigration {
  protected statements() {
    return {
      sqlite: [
        `create table \`queue_sample\` (\`connection_id\` text not null, \`prefix\` text not null, \`queue_name\` text not null, \`resolution\` text not null, \`at\` integer not null, ${sampleColumns.sqlite}, primary key (\`connection_id\`, \`prefix\`, \`queue_name\`, \`resolution\`, \`at\`));`,
        'create index `queue_sample_at_index` on `queue_sample` (`resolution`, `at`);',
        `create table \`connection_sample\` (\`connection_id\` text not null, \`resolution\` text not null, \`at\` integer not null, ${sampleColumns.sqlite}, \`queues\` integer not null, \`up\` integer not null, \`used_memory\` integer, \`max_memory\` integer, \`clients\` integer, \`ops_per_second\` integer, primary key (\`connection_id\`, \`resolution\`, \`at\`));`,
        'create index `connection_sample_at_index` on `connection_sample` (`resolution`, `at`);',
        'create table `lease` (`name` text not null primary key, `holder` text not null, `expires_at` integer not null);',
        'create table `alert_destination` (`id` text not null primary key, `organization_id` text not null, `type` text not null, `name` text not null, `url_sealed` text not null, `secret_sealed` text not null, `created_at` datetime not null);',
        'create index `alert_destination_organization_id_index` on `alert_destination` (`organization_id`);',
        'create table `alert_rule` (`id` text not null primary key, `organization_id` text not null, `connection_id` text not null, `name` text not null, `type` text not null, `threshold` real not null, `window_minutes` integer not null, `min_volume` integer null, `queues` text not null, `destination_ids` text not null, `cooldown_minutes` integer not null, `snoozed_until` datetime null, `enabled` integer not null, `created_at` datetime not null, `updated_at` datetime not null);',
        'create index `alert_rule_connection_id_index` on `alert_rule` (`connection_id`);',
        'create table `alert_event` (`id` text not null primary key, `rule_id` text not null, `connection_id` text not null, `queue_name` text null, `state` text not null, `value` real not null, `threshold` real not null, `fired_at` datetime not null, `resolved_at` datetime null, `acknowledged_at` datetime null);',
        'create index `alert_event_rule_state_index` on `alert_event` (`rule_id`, `state`);',
        'create index `alert_event_connection_fired_index` on `alert_event` (`connection_id`, `fired_at`);',
        'create table `alert_delivery` (`id` text not null primary key, `destination_id` text not null, `event_key` text not null, `payload` text not null, `status` text not null, `attempts` integer not null, `last_status_code` integer null, `last_error` text null, `next_attempt_at` datetime not null, `created_at` datetime not null, `delivered_at` datetime null);',
        'create unique index `alert_delivery_destination_event_unique` on `alert_delivery` (`destination_id`, `event_key`);',
        'create index `alert_delivery_due_index` on `alert_delivery` (`status`, `next_attempt_at`);',
      ],
      postgresql: [
        `create table "queue_sample" ("connection_id" varchar(200) not null, "prefix" text not null, "queue_name" text not null, "resolution" varchar(10) not null, "at" bigint not null, ${sampleColumns.postgresql}, primary key ("connection_id", "prefix", "queue_name", "resolution", "at"));`,
        'create index "queue_sample_at_index" on "queue_sample" ("resolution", "at");',
        `create table "connection_sample" ("connection_id" varchar(200) not null, "resolution" varchar(10) not null, "at" bigint not null, ${sampleColumns.postgresql}, "queues" integer not null, "up" integer not null, "used_memory" bigint, "max_memory" bigint, "clients" integer, "ops_per_second" integer, primary key ("connection_id", "resolution", "at"));`,
        'create index "connection_sample_at_index" on "connection_sample" ("resolution", "at");',
        'create table "lease" ("name" varchar(200) not null primary key, "holder" varchar(100) not null, "expires_at" bigint not null);',
        'create table "alert_destination" ("id" varchar(36) not null primary key, "organization_id" varchar(36) not null, "type" varchar(10) not null, "name" varchar(100) not null, "url_sealed" text not null, "secret_sealed" text not null, "created_at" timestamptz not null);',
        'create index "alert_destination_organization_id_index" on "alert_destination" ("organization_id");',
        'create table "alert_rule" ("id" varchar(36) not null primary key, "organization_id" varchar(36) not null, "connection_id" varchar(200) not null, "name" varchar(100) not null, "type" varchar(20) not null, "threshold" double precision not null, "window_minutes" integer not null, "min_volume" integer null, "queues" jsonb not null, "destination_ids" jsonb not null, "cooldown_minutes" integer not null, "snoozed_until" timestamptz null, "enabled" boolean not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);',
        'create index "alert_rule_connection_id_index" on "alert_rule" ("connection_id");',
        'create table "alert_event" ("id" varchar(36) not null primary key, "rule_id" varchar(36) not null, "connection_id" varchar(200) not null, "queue_name" text null, "state" varchar(10) not null, "value" double precision not null, "threshold" double precision not null, "fired_at" timestamptz not null, "resolved_at" timestamptz null, "acknowledged_at" timestamptz null);',
        'create index "alert_event_rule_state_index" on "alert_event" ("rule_id", "state");',
        'create index "alert_event_connection_fired_index" on "alert_event" ("connection_id", "fired_at");',
        'create table "alert_delivery" ("id" varchar(36) not null primary key, "destination_id" varchar(36) not null, "event_key" varchar(80) not null, "payload" text not null, "status" varchar(10) not null, "attempts" integer not null, "last_status_code" integer null, "last_error" text null, "next_attempt_at" timestamptz not null, "created_at" timestamptz not null, "delivered_at" timestamptz null);',
        'create unique index "alert_delivery_destination_event_unique" on "alert_delivery" ("destination_id", "event_key");',
        'create index "alert_delivery_due_index" on "alert_delivery" ("status", "next_attempt_at");',
      ],
    };
  }
}
