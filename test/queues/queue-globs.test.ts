import { describe, expect, it } from 'vitest';
import { nameGlobMatcher } from '../../routers/metrics/name-glob.js';
import { globMatches, queueSelected } from '../../server/bullmq/queue-globs.js';

describe('queue name globs', () => {
  it('read `*` as any run, `?` as one character and everything else literally', () => {
    const cases: Array<[string, string, boolean]> = [
      ['*', '', true],
      ['*', 'anything at all', true],
      ['mail-*', 'mail-eu', true],
      ['mail-*', 'mail-', true],
      ['mail-*', 'email-eu', false],
      ['reports-?', 'reports-1', true],
      ['reports-?', 'reports-12', false],
      ['*-eu', 'mail-eu', true],
      ['a*b*c', 'aXXbYYc', true],
      ['a*b*c', 'aXXcYYb', false],
      ['a.b', 'aXb', false],
      ['a.b', 'a.b', true],
      ['(x)+[y]{2}', '(x)+[y]{2}', true],
      ['?', '\n', true],
      ['lit\\*', 'lit\\anything', true],
      ['', '', true],
      ['', 'x', false],
    ];
    for (const [glob, name, expected] of cases)
      expect({ glob, name, matches: globMatches(glob, name) }).toEqual({ glob, name, matches: expected });
  });

  it('select by include and exclude, and by a comma-separated list', () => {
    expect(queueSelected('mail-eu', { include: ['mail-*'], exclude: ['*-us'] })).toBe(true);
    expect(queueSelected('mail-us', { include: ['mail-*'], exclude: ['*-us'] })).toBe(false);
    expect(queueSelected('billing', { include: ['mail-*'], exclude: [] })).toBe(false);
    const matcher = nameGlobMatcher(' orders-*, mail ');
    expect(['orders-1', 'mail', 'mailer'].map(matcher)).toEqual([true, true, false]);
    expect(nameGlobMatcher('')('anything')).toBe(true);
  });

  it('answer ReDoS-shaped globs at once (no regular expression to backtrack)', () => {
    const started = performance.now();
    expect(globMatches(`${'*a'.repeat(100)}*b`, 'a'.repeat(200))).toBe(false);
    expect(globMatches(`${'*a'.repeat(100)}*`, 'a'.repeat(200))).toBe(true);
    expect(globMatches('?'.repeat(200), 'a'.repeat(199))).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
