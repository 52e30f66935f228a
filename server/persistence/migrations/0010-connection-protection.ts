import { PlatformMigration } from './platform-migration.js';

/** A saved connection's protection (`none`, `confirm`, `admin`, `read-only`); existing rows stay unprotected. */
export class Migration0010ConnectionProtection extends PlatformMigration {
  protected statements() {
    return {
      sqlite: ["alter table `connection` add column `protection` text not null default 'none';"],
      postgresql: ['alter table "connection" add column "protection" varchar(20) not null default \'none\';'],
    };
  }
}
