import { PlatformMigration } from './platform-migration.js';

/** Users, sessions (hashed ids), memberships, API tokens (hashed) and the audit trail. */
export class Migration0003Auth extends PlatformMigration {
  protected statements() {
    return {
      sqlite: [
        'create table `app_user` (`id` text not null primary key, `email` text not null, `name` text not null, `password_hash` text not null, `created_at` datetime not null, `last_sign_in_at` datetime null);',
        'create unique index `app_user_email_unique` on `app_user` (`email`);',
        'create table `auth_session` (`id_hash` text not null primary key, `user_id` text not null, `expires_at` datetime not null, `active_organization_id` text null, `created_at` datetime not null);',
        'create index `auth_session_user_id_index` on `auth_session` (`user_id`);',
        "create table `membership` (`id` text not null primary key, `organization_id` text not null, `user_id` text not null, `role` text check (`role` in ('viewer', 'operator', 'admin', 'owner')) not null, `created_at` datetime not null);",
        'create index `membership_user_id_index` on `membership` (`user_id`);',
        'create unique index `membership_organization_user_unique` on `membership` (`organization_id`, `user_id`);',
        "create table `api_token` (`id` text not null primary key, `organization_id` text not null, `created_by_user_id` text not null, `name` text not null, `role` text check (`role` in ('viewer', 'operator', 'admin', 'owner')) not null, `token_hash` text not null, `expires_at` datetime null, `last_used_at` datetime null, `created_at` datetime not null);",
        'create index `api_token_organization_id_index` on `api_token` (`organization_id`);',
        'create unique index `api_token_token_hash_unique` on `api_token` (`token_hash`);',
        'create table `audit_event` (`id` text not null primary key, `organization_id` text not null, `at` datetime not null, `actor_kind` text not null, `user_id` text null, `token_id` text null, `action` text not null, `procedure` text not null, `connection_id` text null, `queue_name` text null, `parameters` text not null, `outcome` text not null, `error_code` text null, `counts` text null);',
        'create index `audit_event_organization_at_index` on `audit_event` (`organization_id`, `at`);',
      ],
      postgresql: [
        'create table "app_user" ("id" varchar(36) not null, "email" varchar(320) not null, "name" varchar(200) not null, "password_hash" varchar(300) not null, "created_at" timestamptz not null, "last_sign_in_at" timestamptz null, primary key ("id"));',
        'alter table "app_user" add constraint "app_user_email_unique" unique ("email");',
        'create table "auth_session" ("id_hash" varchar(64) not null, "user_id" varchar(36) not null, "expires_at" timestamptz not null, "active_organization_id" varchar(36) null, "created_at" timestamptz not null, primary key ("id_hash"));',
        'create index "auth_session_user_id_index" on "auth_session" ("user_id");',
        'create table "membership" ("id" varchar(36) not null, "organization_id" varchar(36) not null, "user_id" varchar(36) not null, "role" text not null, "created_at" timestamptz not null, primary key ("id"));',
        'create index "membership_user_id_index" on "membership" ("user_id");',
        'alter table "membership" add constraint "membership_organization_user_unique" unique ("organization_id", "user_id");',
        "alter table \"membership\" add constraint \"membership_role_check\" check (\"role\" in ('viewer', 'operator', 'admin', 'owner'));",
        'create table "api_token" ("id" varchar(36) not null, "organization_id" varchar(36) not null, "created_by_user_id" varchar(36) not null, "name" varchar(200) not null, "role" text not null, "token_hash" varchar(64) not null, "expires_at" timestamptz null, "last_used_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));',
        'create index "api_token_organization_id_index" on "api_token" ("organization_id");',
        'alter table "api_token" add constraint "api_token_token_hash_unique" unique ("token_hash");',
        "alter table \"api_token\" add constraint \"api_token_role_check\" check (\"role\" in ('viewer', 'operator', 'admin', 'owner'));",
        'create table "audit_event" ("id" varchar(36) not null, "organization_id" varchar(36) not null, "at" timestamptz not null, "actor_kind" varchar(20) not null, "user_id" varchar(36) null, "token_id" varchar(36) null, "action" varchar(100) not null, "procedure" varchar(200) not null, "connection_id" varchar(200) null, "queue_name" varchar(1000) null, "parameters" text not null, "outcome" varchar(20) not null, "error_code" varchar(50) null, "counts" text null, primary key ("id"));',
        'create index "audit_event_organization_at_index" on "audit_event" ("organization_id", "at");',
      ],
    };
  }
}
