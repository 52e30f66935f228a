import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOrCreateEmbeddedKey } from '../../server/secrets/encryption-key.js';

/** The generated secrets of the embedded data directory, when two processes start on it at once. */
describe('a secret kept beside the embedded database', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'bullpen-kept-secret-'));
  });
  afterEach(() => rm(directory, { recursive: true, force: true }));

  it('created by two starts at the same moment: both get the one that was written, 0600', async () => {
    const [first, second, third] = await Promise.all([
      loadOrCreateEmbeddedKey(directory),
      loadOrCreateEmbeddedKey(directory),
      loadOrCreateEmbeddedKey(directory),
    ]);
    expect(second.equals(first)).toBe(true);
    expect(third.equals(first)).toBe(true);
    expect((await loadOrCreateEmbeddedKey(directory)).equals(first)).toBe(true);
    expect((await stat(path.join(directory, 'encryption.key'))).mode & 0o777).toBe(0o600);
  });

  it('read while the other process has created the file but not written it yet: waits for its content', async () => {
    const file = path.join(directory, 'encryption.key');
    await writeFile(file, '', { mode: 0o600 });
    const reading = loadOrCreateEmbeddedKey(directory);
    await sleep(150);
    await writeFile(file, `${'b'.repeat(64)}\n`);
    expect((await reading).toString('hex')).toBe('b'.repeat(64));
  });

  it('a file that stays empty or holds something else is an error, never replaced', async () => {
    const file = path.join(directory, 'encryption.key');
    await writeFile(file, '', { mode: 0o600 });
    await expect(loadOrCreateEmbeddedKey(directory)).rejects.toThrow(/does not hold a 32-byte hex key/);
    await writeFile(file, 'not a key\n');
    await expect(loadOrCreateEmbeddedKey(directory)).rejects.toThrow(/does not hold a 32-byte hex key/);
  });
});
