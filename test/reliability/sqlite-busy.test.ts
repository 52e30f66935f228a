import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedDatabaseFile } from '../../server/persistence/orm.js';
import { bootApp, request, type TestApp } from '../helpers/app.js';
import { repoRoot } from '../helpers/process.js';

/**
 * Another process holding the SQLite file's write lock (a backup, a second
 * tool): the service neither freezes its event loop nor answers 500. The lock
 * must come from another process: two SQLite copies in one process do not see
 * each other's POSIX locks.
 */
interface LockHolder {
  /** Settles when the holder has released the lock and exited (listened from spawn, so an early exit is not missed). */
  exited: Promise<void>;
}

function holdWriteLock(file: string, ms: number): Promise<LockHolder> {
  const script = `const D=require('better-sqlite3');const d=new D(process.argv[1]);d.exec('begin exclusive');console.log('locked');setTimeout(()=>{d.exec('rollback');process.exit(0)},Number(process.argv[2]));`;
  const child = spawn(process.execPath, ['-e', script, file, String(ms)], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve) => child.stdout!.once('data', () => resolve({ exited })));
}

describe('embedded SQLite locked by another process', () => {
  let app: TestApp;
  let file: string;
  beforeAll(async () => {
    app = await bootApp({ env: { SERVICE_AUTHLESS: 'true', DATABASE_TIMEOUT_MS: '2000' } });
    file = path.join((app.config.persistence as { directory: string }).directory, embeddedDatabaseFile);
  });
  afterAll(() => app.close());

  const timed = async (url: string, init?: Parameters<typeof request>[1]) => {
    const started = performance.now();
    const response = await request(url, init);
    return { ...response, ms: performance.now() - started };
  };
  const create = (name: string) =>
    timed(`${app.api}/connections`, { method: 'POST', body: { name, url: 'redis://127.0.0.1:6379/0' } });

  it('answers 503 DATABASE_UNAVAILABLE with Retry-After after its budget, serving other routes meanwhile', async () => {
    const holder = await holdWriteLock(file, 4000);
    const writes = [create('blocked-1'), create('blocked-2')];
    const mode = await timed(`${app.api}/mode`);
    expect(mode.status).toBe(200);
    expect(mode.ms).toBeLessThan(1000);
    for (const answer of await Promise.all(writes)) {
      expect(answer.status).toBe(503);
      expect(answer.body.code).toBe('DATABASE_UNAVAILABLE');
      expect(answer.headers.get('retry-after')).toBe('2');
      expect(answer.ms).toBeLessThan(4000);
    }
    await holder.exited;
  });

  it('retries while the lock is held briefly, and succeeds', async () => {
    const holder = await holdWriteLock(file, 700);
    const answer = await create('after-a-wait');
    expect(answer.status).toBe(201);
    expect(answer.ms).toBeGreaterThan(300);
    await holder.exited;
  });
});
