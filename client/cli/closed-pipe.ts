import type { Writable } from 'node:stream';

/**
 * `bullpen watch emails | head -5`: once the reader has gone, the next write
 * fails with EPIPE. That is how a pipeline says "enough": end at once and
 * successfully, with no stack trace. Any other stream error stays fatal.
 */
export function endQuietlyOnClosedPipe(
  streams: Writable[],
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  for (const stream of streams) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      exit(0);
    });
  }
}
