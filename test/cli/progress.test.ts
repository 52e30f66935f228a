import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { withProgress } from '../../client/cli/progress.js';

function stream(isTTY: boolean) {
  const chunks: string[] = [];
  const writable = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    }),
    { isTTY },
  );
  return { writable, text: () => chunks.join('') };
}

describe('CLI progress', () => {
  it('draws a spinner with the latest count on a terminal, then clears its line', async () => {
    const terminal = stream(true);
    const result = await withProgress(terminal.writable, 'purging…', async (progress) => {
      progress.update('retried 100, 50 remaining');
      return 42;
    });
    expect(result).toBe(42);
    expect(terminal.text()).toContain('purging…');
    expect(terminal.text()).toContain('retried 100, 50 remaining');
    expect(terminal.text().endsWith('\r\x1b[2K')).toBe(true);
  });

  it('clears its line when the work fails', async () => {
    const terminal = stream(true);
    await expect(
      withProgress(terminal.writable, 'purging…', async () => Promise.reject(new Error('boom'))),
    ).rejects.toThrow('boom');
    expect(terminal.text().endsWith('\r\x1b[2K')).toBe(true);
  });

  it('writes nothing when stderr is not a terminal', async () => {
    const pipe = stream(false);
    await withProgress(pipe.writable, 'purging…', async (progress) => progress.update('retried 1'));
    expect(pipe.text()).toBe('');
  });
});
