import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedDatabaseFile } from '../../server/persistence/orm.js';
import { startServiceProcess } from '../helpers/process.js';

/**
 * Embedded mode writes through a write-ahead log without syncing each commit (server/persistence/
 * sqlite-journal.ts): commits stop holding the event loop for fsyncs, and a killed process still
 * loses nothing it answered for.
 */
const require = createRequire(import.meta.url);

describe('embedded SQLite journal', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'bullpen-journal-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('shares one SQLite library with the tests (better-sqlite3 pinned to the version @mikro-orm/sqlite pins)', () => {
    // Two copies in one process do not see each other's locks: in WAL mode a test's reader closing last in
    // its copy checkpointed and deleted the log the service was writing (rows then vanished from reads).
    const fromOrm = createRequire(require.resolve('@mikro-orm/sqlite')).resolve('better-sqlite3');
    expect(fromOrm).toBe(require.resolve('better-sqlite3'));
  });

  it('uses a write-ahead log, and a write answered before a SIGKILL is in the database after it', async () => {
    const env = { PORT: '0', HOST: '127.0.0.1', SERVICE_EMBEDDED_DIR: dataDir, SERVICE_AUTHLESS: 'true' };
    const service = startServiceProcess(env);
    const url = (await service.waitForOutput(/http:\/\/127\.0\.0\.1:\d+/)).trim();
    const created = await fetch(`${url}/api/connections`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'kept-through-a-kill', url: 'redis://127.0.0.1:6379/0' }),
    });
    expect(created.status).toBe(201);
    service.child.kill('SIGKILL');
    await service.exited;

    const db = new Database(path.join(dataDir, embeddedDatabaseFile));
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const row = db.prepare('select count(*) as n from connection where name = ?').get('kept-through-a-kill');
      expect(row).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });
});
