import { chmod, readFile, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

export interface SecretFormat<T> {
  generate(): T;
  /** The value a file holds, or null when its text is not a valid one. */
  parse(text: string): T | null;
  serialize(value: T): string;
  /** What a valid file holds, for the error when it holds something else. */
  expected: string;
}

/** How long an empty file is taken for one another process is writing at this moment. */
const beingWrittenForMs = 1000;

/**
 * A secret kept beside the embedded database: read when the file exists,
 * otherwise generated once, readable by the service's user only. Never
 * rewritten: what it protects becomes unreadable without it. Two processes
 * starting on one data directory at the same moment end up with the same
 * secret: the second's exclusive create fails and it reads the first's.
 */
export async function keptSecret<T>(file: string, format: SecretFormat<T>): Promise<T> {
  const kept = await readSecret(file, format);
  if (kept !== null) return kept;
  const value = format.generate();
  try {
    // 'wx' fails rather than overwrite a secret another process wrote meanwhile.
    await writeFile(file, `${format.serialize(value)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return keptSecret(file, format);
  }
  await chmod(file, 0o600);
  return value;
}

/** The secret the file holds, or null when there is no file. */
async function readSecret<T>(file: string, format: SecretFormat<T>): Promise<T | null> {
  const deadline = Date.now() + beingWrittenForMs;
  for (;;) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    // Created but not written yet (the other process's one write is under way): read again shortly.
    if (text === '' && Date.now() < deadline) {
      await sleep(20);
      continue;
    }
    const value = format.parse(text);
    if (value === null) throw new Error(`${file} does not hold ${format.expected}`);
    return value;
  }
}
