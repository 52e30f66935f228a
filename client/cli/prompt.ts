import { createInterface } from 'node:readline';
import type { CliIo } from './context.js';

/** Shows `question` on stderr and reads one line from stdin (empty when stdin ends first). */
export async function askLine(io: CliIo, question: string): Promise<string> {
  const lines = createInterface({ input: io.stdin, terminal: false });
  io.stderr.write(question);
  try {
    for await (const line of lines) return line;
    return '';
  } finally {
    lines.close();
  }
}
