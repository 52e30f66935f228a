import { chmod, readFile, writeFile } from 'node:fs/promises';

export interface SecretFormat<T> {
  generate(): T;
  /** The value a file holds, or null when its text is not a valid one. */
  parse(text: string): T | null;
  serialize(value: T): string;
  /** What a valid file holds, for the error when it holds something else. */
  expected: string;
}

/**
 * A secret kept beside the embedded database: read when the file exists,
 * otherwise generated once, readable by the service's user only. Never
 * rewritten: what it protects becomes unreadable without it.
 */
export async function keptSecret<T>(file: string, format: SecretFormat<T>): Promise<T> {
  try {
    const value = format.parse(await readFile(file, 'utf8'));
    if (value === null) throw new Error(`${file} does not hold ${format.expected}`);
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const value = format.generate();
  // 'wx' fails rather than overwrite a secret another process wrote meanwhile.
  await writeFile(file, `${format.serialize(value)}\n`, { mode: 0o600, flag: 'wx' });
  await chmod(file, 0o600);
  return value;
}
