import { readFile } from 'node:fs/promises';
import http from 'node:http';

/** A GET whose body is read at `bytesPerSecond`, as a slow client (a phone, a far proxy) reads it. */
export function slowRead(
  url: string,
  bytesPerSecond: number,
): Promise<{ status: number | null; bytes: number; error: string | null; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    let bytes = 0;
    const request = http.get(url, { agent: false }, (response) => {
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        // Behind schedule by this chunk: pause until the rate allows it.
        const dueMs = (bytes / bytesPerSecond) * 1000 - (Date.now() - started);
        if (dueMs > 0) {
          response.pause();
          setTimeout(() => response.resume(), dueMs);
        }
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? null, bytes, error: null, ms: Date.now() - started }),
      );
      response.on('error', (error) =>
        resolve({ status: response.statusCode ?? null, bytes, error: error.message, ms: Date.now() - started }),
      );
    });
    request.on('error', (error) => resolve({ status: null, bytes, error: error.message, ms: Date.now() - started }));
  });
}

/** A process's resident memory now and its peak (VmRSS, VmHWM), in bytes. */
export async function residentMemory(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}
