import { PlatformMigration } from './platform-migration.js';

/**
 * An API token's scope (`full`, or `read`: reads only), existing tokens
 * staying full; and the reason a call gave for itself (the `Bullpen-Reason`
 * header, or an MCP tool's `reason` argument), kept in its audit event.
 */
export class Migration0011TokenScopeAndReasons extends PlatformMigration {
  protected statements() {
    return {
      sqlite: [
        "alter table `api_token` add column `scope` text check (`scope` in ('full', 'read')) not null default 'full';",
        'alter table `audit_event` add column `reason` text null;',
      ],
      postgresql: [
        'alter table "api_token" add column "scope" varchar(20) not null default \'full\';',
        'alter table "api_token" add constraint "api_token_scope_check" check ("scope" in (\'full\', \'read\'));',
        'alter table "audit_event" add column "reason" varchar(1000) null;',
      ],
    };
  }
}
