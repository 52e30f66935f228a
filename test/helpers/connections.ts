import path from 'node:path';
import Database from 'better-sqlite3';
import { embeddedDatabaseFile } from '../../server/persistence/orm.js';
import type { TestApp } from './app.js';
import { queryDatabase } from './postgres.js';

/** Every saved connection row exactly as the database holds it, whichever database the app runs on. */
export async function readConnectionRows(app: TestApp): Promise<Array<Record<string, unknown>>> {
  const persistence = app.config.persistence;
  if (persistence.mode === 'server') return queryDatabase(persistence.databaseUrl, 'select * from connection');
  const db = new Database(path.join(persistence.directory, embeddedDatabaseFile), { readonly: true });
  try {
    return db.prepare('select * from connection').all() as Array<Record<string, unknown>>;
  } finally {
    db.close();
  }
}

/** A 32-byte key as SERVICE_ENCRYPTION_KEY takes it. */
export const testEncryptionKey = 'a'.repeat(64);
