import { Migration } from '@mikro-orm/migrations';

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
    // By name, not instanceof: importing the PostgreSQL platform would load its driver in embedded mode.
    const isPostgres = this.driver.getPlatform().constructor.name === 'PostgreSqlPlatform';
    for (const sql of this.statements()[isPostgres ? 'postgresql' : 'sqlite']) this.addSql(sql);
  }
}
