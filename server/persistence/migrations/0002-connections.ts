import { PlatformMigration } from './platform-migration.js';

/** Saved connections; the partial unique index keeps one default per organization even under concurrent writes. */
export class Migration0002Connections extends PlatformMigration {
  protected statements() {
    return {
      sqlite: [
        'create table `connection` (`id` text not null primary key, `organization_id` text not null, `name` text not null, `url_sealed` text not null, `environment` text not null, `prefixes` json not null, `is_default` integer not null default false, `tls_enabled` integer not null default false, `tls_allow_self_signed` integer not null default false, `cluster` integer not null default false, `created_at` datetime not null, `updated_at` datetime not null, constraint `connection_organization_id_foreign` foreign key (`organization_id`) references `organization` (`id`) on delete cascade);',
        'create index `connection_organization_id_index` on `connection` (`organization_id`);',
        'create unique index `connection_organization_name_unique` on `connection` (`organization_id`, `name`);',
        'create unique index `connection_one_default_per_organization` on `connection` (`organization_id`) where `is_default`;',
      ],
      postgresql: [
        'create table "connection" ("id" varchar(36) not null, "organization_id" varchar(36) not null, "name" varchar(100) not null, "url_sealed" text not null, "environment" varchar(20) not null, "prefixes" jsonb not null, "is_default" boolean not null default false, "tls_enabled" boolean not null default false, "tls_allow_self_signed" boolean not null default false, "cluster" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));',
        'alter table "connection" add constraint "connection_organization_name_unique" unique ("organization_id", "name");',
        'alter table "connection" add constraint "connection_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade;',
        'create unique index "connection_one_default_per_organization" on "connection" ("organization_id") where "is_default";',
      ],
    };
  }
}
