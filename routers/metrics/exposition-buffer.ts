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

  /**
   * Appends the sample `head` labels[start, mid) `inner` labels[mid, end) `} value`: the queue
   * families' lines, copied byte by byte from labels encoded once a queue (labels.ts) and a few
   * constant pieces, the value's digits written in place: no string is made for a line.
   */
  sample(
    head: Uint8Array,
    labels: Uint8Array,
    start: number,
    mid: number,
    inner: Uint8Array,
    end: number,
    value: number,
  ): void {
    const size = head.length + inner.length + (end - start) + maxValueBytes;
    if (size > bufferBytes) return this.add(sampleText(head, labels, start, mid, inner, end, value));
    if (this.used + size > bufferBytes) this.flush();
    const out = this.buffer;
    let at = this.used;
    for (let i = 0; i < head.length; i++) out[at++] = head[i]!;
    for (let i = start; i < mid; i++) out[at++] = labels[i]!;
    for (let i = 0; i < inner.length; i++) out[at++] = inner[i]!;
    for (let i = mid; i < end; i++) out[at++] = labels[i]!;
    out[at++] = 125; // '}'
    out[at++] = 32; // ' '
    at = writeValue(out, at, value);
    out[at++] = 10; // '\n'
    this.used = at;
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

/** Room a value takes at most, with `} ` and the newline: String() of a double is at most 24 characters. */
const maxValueBytes = 32;

/** Writes `value` at `at` as Prometheus reads it (integers in decimal, others as String() does); returns the end. */
function writeValue(out: Buffer, at: number, value: number): number {
  // Most figures of a queue are one digit (zeros above all).
  if (value >= 0 && value < 10 && value === Math.floor(value)) {
    out[at] = 48 + value;
    return at + 1;
  }
  if (!(Number.isSafeInteger(value) && value >= 0)) return at + out.write(String(value), at, 'latin1');
  const from = at;
  do {
    out[at++] = 48 + (value % 10);
    value = Math.floor(value / 10);
  } while (value > 0);
  // The digits went in least significant first: turn them around.
  for (let i = from, j = at - 1; i < j; i++, j--) {
    const digit = out[i]!;
    out[i] = out[j]!;
    out[j] = digit;
  }
  return at;
}

/** The same sample as a string (a line longer than a buffer: a queue name of several hundred KB). */
function sampleText(
  head: Uint8Array,
  labels: Uint8Array,
  start: number,
  mid: number,
  inner: Uint8Array,
  end: number,
  value: number,
): string {
  const text = (bytes: Uint8Array, from = 0, to = bytes.length) =>
    Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString('utf8');
  return `${text(head)}${text(labels, start, mid)}${text(inner)}${text(labels, mid, end)}} ${value}\n`;
}
