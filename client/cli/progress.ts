import type { Writable } from 'node:stream';

export interface Progress {
  update(text: string): void;
  stop(): void;
}

const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * A spinner with a changing label on a terminal's stderr; nothing at all when
 * stderr is not a terminal, so scripts and pipes see only the result.
 */
export function startProgress(stream: Writable & { isTTY?: boolean }, text: string): Progress {
  if (!stream.isTTY) return { update() {}, stop() {} };
  let label = text;
  let frame = 0;
  const draw = () => stream.write(`\r\x1b[2K${frames[frame++ % frames.length]} ${label}`);
  draw();
  const timer = setInterval(draw, 80);
  return {
    update(next) {
      label = next;
      draw();
    },
    stop() {
      clearInterval(timer);
      stream.write('\r\x1b[2K');
    },
  };
}

/** Runs `work` with a spinner showing `text` (on a terminal). */
export async function withProgress<T>(
  stream: Writable & { isTTY?: boolean },
  text: string,
  work: (progress: Progress) => Promise<T>,
): Promise<T> {
  const progress = startProgress(stream, text);
  try {
    return await work(progress);
  } finally {
    progress.stop();
  }
}
