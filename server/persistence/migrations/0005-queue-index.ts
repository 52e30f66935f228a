import { PlatformMigration } from './platform-migration.js';

/** The persisted queue index: queue names per connection and prefix, and each prefix's last discovery scan. */
export class Migration0005QueueIndex extends PlatformMigration {
  protected statements() {
    return {
      sqlite: [
        'create table `queue_index_entry` (`connection_id` text not null, `prefix` text not null, `name` text not null, primary key (`connection_id`, `prefix`, `name`));',
        'create table `queue_discovery_scan` (`connection_id` text not null, `prefix` text not null, `scanned_at` datetime not null, `duration_ms` integer not null, `complete` integer not null, `incomplete_reason` text null, primary key (`connection_id`, `prefix`));',
      ],
      postgresql: [
        'create table "queue_index_entry" ("connection_id" varchar(200) not null, "prefix" varchar(200) not null, "name" varchar(1000) not null, primary key ("connection_id", "prefix", "name"));',
        'create table "queue_discovery_scan" ("connection_id" varchar(200) not null, "prefix" varchar(200) not null, "scanned_at" timestamptz not null, "duration_ms" int not null, "complete" boolean not null, "incomplete_reason" text null, primary key ("connection_id", "prefix"));',
      ],
    };
  }
}
