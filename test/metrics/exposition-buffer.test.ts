import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ExpositionBuffer } from '../../routers/metrics/exposition-buffer.js';

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
});
