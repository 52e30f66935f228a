import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ExpositionBuffer } from '../../routers/metrics/exposition-buffer.js';
import { QueueLabels } from '../../routers/metrics/queue-labels.js';

/** A sink that takes `highWaterMark` bytes before it asks the writer to wait, and records what it got. */
function sink(highWaterMark: number) {
  const chunks: Buffer[] = [];
  const out = new Writable({
    highWaterMark,
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      setImmediate(done);
    },
  });
  return { out, text: () => Buffer.concat(chunks).toString('utf8'), chunks };
}

describe('ExpositionBuffer', () => {
  it('writes every line in order, multi-byte text and a text longer than a buffer included', async () => {
    const { out, text, chunks } = sink(16 * 1024);
    const buffer = new ExpositionBuffer(out);
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const line = `bullmq_job_count{queue="q-${i}-été-队列"} ${i}\n`;
      lines.push(line);
      buffer.add(line);
      if (i % 1000 === 0) await buffer.settle();
    }
    const long = `${'x'.repeat(300_000)}\n`;
    buffer.add(long);
    buffer.add('tail\n');
    await buffer.end();
    expect(text()).toBe(`${lines.join('')}${long}tail\n`);
    // Sent a buffer at a time, not a line at a time.
    expect(chunks.length).toBeLessThan(20);
  });

  it('waits for a backed-up response at settle, so what it holds stays bounded', async () => {
    const { out } = sink(1024);
    const buffer = new ExpositionBuffer(out);
    let peak = 0;
    for (let i = 0; i < 200; i++) {
      for (let j = 0; j < 1000; j++) buffer.add(`line ${i} ${j} ${'y'.repeat(60)}\n`);
      peak = Math.max(peak, out.writableLength);
      await buffer.settle();
    }
    await buffer.end();
    // 200 rounds of ~70 KB were written (14 MB); the sink never held more than a round and a buffer.
    expect(peak).toBeLessThan(1024 * 1024);
    expect(out.writableLength).toBe(0);
  });

  it('writes a sample as bytes from the labels encoded once: every kind of value, escapes, multi-byte names, a name longer than a buffer', async () => {
    const { out, text } = sink(16 * 1024);
    const long = 'n'.repeat(300_000);
    const refs = ['mail "out"', 'été\\队列\nx', long].map((name) => ({ prefix: 'bull', name }));
    const labels = QueueLabels.of(refs, 'main');
    const buffer = new ExpositionBuffer(out);
    const bytes = (value: string) => new Uint8Array(Buffer.from(value));
    const values = [0, 9, 10, 12_345, 2 ** 53 + 2, 1.5, -3, Number.NaN];
    for (let i = 0; i < refs.length; i++)
      for (const value of values)
        buffer.sample(
          bytes('m{'),
          labels.bytes,
          labels.starts[i]!,
          labels.mids[i]!,
          bytes(',state="x"'),
          labels.starts[i + 1]!,
          value,
        );
    await buffer.end();
    const tail = ',state="x",connection="main",prefix="bull"}';
    const names = ['mail \\"out\\"', 'été\\\\队列\\nx', long];
    const expected = names.flatMap((name) => values.map((value) => `m{queue="${name}"${tail} ${value}\n`));
    expect(text()).toBe(expected.join(''));
  });
});
