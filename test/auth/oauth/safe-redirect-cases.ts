/**
 * `redirectTo` values that must land on `/` after sign-in: each would reach
 * another origin once a browser normalises it (dot segments, percent
 * escapes, backslashes, dropped tabs and newlines), cannot be normalised
 * (a malformed escape), or is not a path at all.
 */
export const offOriginRedirects = [
  '/.//evil.example/a',
  '/..//evil.example/a',
  '/%2e//evil.example/a',
  '/%2E%2E//evil.example/a',
  '/a/..//evil.example/a',
  '/a/%2e%2e//evil.example/a',
  '/.%2e//evil.example',
  '/a%3F/../..//evil.example',
  '//evil.example/x',
  '///evil.example',
  '/\\evil.example',
  '/\\\\evil.example',
  '\\\\evil.example',
  '/%5cevil.example',
  '/%5C%5Cevil.example',
  '%2F%2Fevil.example',
  '/%2F%2Fevil.example',
  '/%2f/evil.example',
  '/%252F%252Fevil.example',
  '/%25252F%25252Fevil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '/%09/evil.example',
  '/%0a/evil.example',
  '/%0d%0a/evil.example',
  '/%00',
  '/%E0%A4%A',
  ' //evil.example',
  'https://evil.example/',
  'http:evil.example',
  'HTTPS://evil.example',
  '//evil.example@bullpen/',
  'javascript:alert(1)',
  'data:text/html,x',
  'evil.example',
  '',
  `/${'a'.repeat(2000)}`,
];

/** Paths on this origin that stay as they are. */
export const onOriginRedirects: Array<[string, string]> = [
  ['/', '/'],
  ['/queues?tab=failed#top', '/queues?tab=failed#top'],
  ['/queues/a%2Fb', '/queues/a%2Fb'],
  ['/a/./b/../c', '/a/c'],
  ['/?next=//evil.example', '/?next=//evil.example'],
  ['/#//evil.example', '/#//evil.example'],
];
