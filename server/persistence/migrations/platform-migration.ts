import { Migration } from '@mikro-orm/migrations';
import { PostgreSqlPlatform } from '@mikro-orm/postgresql';

export interface PlatformStatements {
  sqlite: string[];
  postgresql: string[];
}

/**
 * The same schema change written once per database: SQLite and PostgreSQL
 * disagree on types (datetime vs timestamptz), so each migration carries both.
 */
export abstract class PlatformMigration extends Migration {
  protected abstract statements(): PlatformStatements;

  override up(): void {
    const isPostgres = this.driver.getPlatform() instanceof PostgreSqlPlatform;
    for (const sql of this.statements()[isPostgres ? 'postgresql' : 'sqlite']) this.addSql(sql);
  }
}
