import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, lazyLogger } from '../../server/logger.js';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write: (chunk, _encoding, done) => {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info', destination }) };
}

describe('lazyLogger (a request context logger made on first use)', () => {
  it('makes no logger until a method is used, then one for every later use', () => {
    const { lines, logger } = capture();
    let made = 0;
    const lazy = lazyLogger(() => {
      made++;
      return logger.child({ requestId: 'r-1' });
    });
    const copied = { ...{ logger: lazy } };
    expect(made).toBe(0);
    copied.logger.info({ n: 1 }, 'first');
    lazy.warn('second');
    expect(made).toBe(1);
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toMatchObject([
      { requestId: 'r-1', n: 1, msg: 'first', level: 30 },
      { requestId: 'r-1', msg: 'second', level: 40 },
    ]);
  });

  it('answers level checks and children as the real logger does', () => {
    const { lines, logger } = capture();
    const lazy = lazyLogger(() => logger.child({ requestId: 'r-2' }));
    expect(lazy.isLevelEnabled('debug')).toBe(false);
    expect(lazy.isLevelEnabled('info')).toBe(true);
    lazy.child({ step: 'audit' }).info('nested');
    expect(JSON.parse(lines[0]!)).toMatchObject({ requestId: 'r-2', step: 'audit', msg: 'nested' });
  });
});
