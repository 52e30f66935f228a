import { randomUUID } from 'node:crypto';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * MikroORM connects lazily, so an unwritable data directory would only show up
 * on the first query. Probe it at boot instead, by creating and deleting a file.
 * Resolves to the reason the directory is unusable, or null when it is fine.
 */
export async function probeWritableDirectory(directory: string): Promise<string | null> {
  try {
    // Readable by the service's user only: it holds the database and generated secrets.
    const created = await mkdir(directory, { recursive: true, mode: 0o700 });
    if (created) await chmod(directory, 0o700);
    const probe = path.join(directory, `.write-probe-${randomUUID()}`);
    await writeFile(probe, '');
    await rm(probe);
    return null;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return `embedded data directory ${directory} is not writable (${reason})`;
  }
}
