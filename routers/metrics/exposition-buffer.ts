import { once } from 'node:events';
import type { Writable } from 'node:stream';

/** Bytes of one buffer handed to the response: a few hundred writes for 100 MB, each a bounded allocation. */
const bufferBytes = 256 * 1024;

/**
 * The exposition's text encoded into Buffers as it is produced, a Buffer
 * written to the response once full. A profile of a 100,000-queue scrape
 * (101 MB) spent most of its time on strings: each chunk built by `+=` was
 * a rope of thousands of pieces, flattened by the response to measure it
 * (Buffer.byteLength) and copied again to encode it, with the garbage of
 * both. Here each line is encoded once, where it is made, into a Buffer the
 * response sends as it is; memory stays a buffer and what the socket holds.
 */
export class ExpositionBuffer {
  private buffer: Buffer = Buffer.allocUnsafe(bufferBytes);
  private used = 0;
  private backedUp = false;
  /** Buffers the response has written out, to fill again. */
  private readonly free: Buffer[] = [];

  constructor(private readonly out: Writable) {}

  /** Appends `text` (synchronous: call `settle` every few thousand lines). */
  add(text: string): void {
    // A UTF-16 unit is at most 3 bytes: `text` always fits after a flush unless it is longer than a buffer.
    if (this.used + text.length * 3 > bufferBytes) this.flush();
    if (text.length * 3 > bufferBytes) this.send(Buffer.from(text));
    else this.used += this.buffer.write(text, this.used);
  }

  /** Waits while the response is backed up: what is held stays a few buffers whatever the scrape's size. */
  async settle(): Promise<void> {
    if (!this.backedUp) return;
    this.backedUp = false;
    await once(this.out, 'drain');
  }

  /** Writes what is buffered and waits for the response to take it. */
  async end(): Promise<void> {
    this.flush();
    await this.settle();
  }

  private flush(): void {
    if (this.used === 0) return;
    const full = this.buffer;
    const used = this.used;
    this.buffer = this.free.pop() ?? Buffer.allocUnsafe(bufferBytes);
    this.used = 0;
    // Reused once the response has handed it on: 100 MB of new Buffers a scrape made V8 collect for their external memory.
    this.send(full.subarray(0, used), () => this.free.push(full));
  }

  private send(chunk: Buffer, written?: () => void): void {
    if (!this.out.write(chunk, written && ((error) => error || written()))) this.backedUp = true;
  }
}
