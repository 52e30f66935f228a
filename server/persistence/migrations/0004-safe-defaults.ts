import { PlatformMigration } from './platform-migration.js';

/**
 * Invitations and password resets (tokens kept as keyed hashes only) and
 * instance settings: who claimed the instance first, the hashed setup token.
 */
export class Migration0004SafeDefaults extends PlatformMigration {
  protected statements() {
    return {
      sqlite: [
        "create table `invitation` (`id` text not null primary key, `organization_id` text not null, `email` text not null, `role` text check (`role` in ('viewer', 'operator', 'admin', 'owner')) not null, `token_hash` text not null, `invited_by_user_id` text not null, `expires_at` datetime not null, `accepted_at` datetime null, `accepted_by_user_id` text null, `created_at` datetime not null, constraint `invitation_organization_id_foreign` foreign key (`organization_id`) references `organization` (`id`) on delete cascade);",
        'create unique index `invitation_token_hash_unique` on `invitation` (`token_hash`);',
        'create index `invitation_organization_id_index` on `invitation` (`organization_id`);',
        'create table `password_reset` (`id` text not null primary key, `user_id` text not null, `token_hash` text not null, `created_by_user_id` text null, `expires_at` datetime not null, `used_at` datetime null, `created_at` datetime not null);',
        'create unique index `password_reset_token_hash_unique` on `password_reset` (`token_hash`);',
        'create table `instance_setting` (`key` text not null primary key, `value` text not null, `created_at` datetime not null);',
      ],
      postgresql: [
        'create table "invitation" ("id" varchar(36) not null, "organization_id" varchar(36) not null, "email" varchar(320) not null, "role" text not null, "token_hash" varchar(64) not null, "invited_by_user_id" varchar(36) not null, "expires_at" timestamptz not null, "accepted_at" timestamptz null, "accepted_by_user_id" varchar(36) null, "created_at" timestamptz not null, primary key ("id"));',
        'alter table "invitation" add constraint "invitation_token_hash_unique" unique ("token_hash");',
        'create index "invitation_organization_id_index" on "invitation" ("organization_id");',
        "alter table \"invitation\" add constraint \"invitation_role_check\" check (\"role\" in ('viewer', 'operator', 'admin', 'owner'));",
        'alter table "invitation" add constraint "invitation_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on delete cascade;',
        'create table "password_reset" ("id" varchar(36) not null, "user_id" varchar(36) not null, "token_hash" varchar(64) not null, "created_by_user_id" varchar(36) null, "expires_at" timestamptz not null, "used_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));',
        'alter table "password_reset" add constraint "password_reset_token_hash_unique" unique ("token_hash");',
        'create table "instance_setting" ("key" varchar(100) not null, "value" text not null, "created_at" timestamptz not null, primary key ("key"));',
      ],
    };
  }
}
