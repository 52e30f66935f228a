import { describe, expect, it } from 'vitest';
import { safeRedirectPath } from '../../../routers/auth/oauth/safe-redirect.js';
import { offOriginRedirects, onOriginRedirects } from './safe-redirect-cases.js';

const origin = 'https://bullpen.example.test';

describe('redirectTo is judged after normalising', () => {
  it.each(offOriginRedirects)('%j → /', (value) => {
    expect(safeRedirectPath(value, origin)).toBe('/');
  });

  it.each(onOriginRedirects)('%j → %j', (value, expected) => {
    expect(safeRedirectPath(value, origin)).toBe(expected);
  });

  it.each([undefined, null, 42, ['/a'], { path: '/a' }])('%j (not a string) → /', (value) => {
    expect(safeRedirectPath(value, origin)).toBe('/');
  });

  it('never answers a path that a browser would read as another host', () => {
    for (const value of offOriginRedirects) {
      const answered = safeRedirectPath(value, origin);
      expect(new URL(answered, origin).origin).toBe(origin);
      expect(answered).toMatch(/^\/(?![/\\])/);
    }
  });
});
