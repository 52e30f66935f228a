import { PlatformMigration } from './platform-migration.js';

/** Accounts at identity providers (OpenID Connect, GitHub, Google), each linked to one user. */
export class Migration0007ExternalIdentities extends PlatformMigration {
  protected statements() {
    return {
      sqlite: [
        'create table `external_identity` (`id` text not null primary key, `user_id` text not null, `provider` text not null, `subject` text not null, `email` text null, `created_at` datetime not null, `last_sign_in_at` datetime null);',
        'create index `external_identity_user_id_index` on `external_identity` (`user_id`);',
        'create unique index `external_identity_provider_subject_unique` on `external_identity` (`provider`, `subject`);',
      ],
      postgresql: [
        'create table "external_identity" ("id" varchar(36) not null, "user_id" varchar(36) not null, "provider" varchar(20) not null, "subject" varchar(255) not null, "email" varchar(320) null, "created_at" timestamptz not null, "last_sign_in_at" timestamptz null, primary key ("id"));',
        'create index "external_identity_user_id_index" on "external_identity" ("user_id");',
        'alter table "external_identity" add constraint "external_identity_provider_subject_unique" unique ("provider", "subject");',
      ],
    };
  }
}
