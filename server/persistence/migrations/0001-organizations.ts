import { PlatformMigration } from './platform-migration.js';

export class Migration0001Organizations extends PlatformMigration {
  protected statements() {
    return {
      sqlite: [
        'create table `organization` (`id` text not null primary key, `name` text not null, `slug` text not null, `is_local` integer not null default false, `created_at` datetime not null);',
        'create unique index `organization_slug_unique` on `organization` (`slug`);',
      ],
      postgresql: [
        'create table "organization" ("id" varchar(36) not null, "name" varchar(200) not null, "slug" varchar(200) not null, "is_local" boolean not null default false, "created_at" timestamptz not null, primary key ("id"));',
        'alter table "organization" add constraint "organization_slug_unique" unique ("slug");',
      ],
    };
  }
}
