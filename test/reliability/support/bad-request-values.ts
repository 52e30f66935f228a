/** The odd values the bad-request generator (bad-requests.ts) draws from, by where they are sent. */

/** Path values that are sent percent-encoded: the route matches, the value is odd. */
export const encodedStrings = [
  '..',
  '.',
  '/',
  '../..',
  'a/b',
  '%',
  '%25',
  '%2F',
  ' ',
  '  padded  ',
  'tab\there',
  'new\nline',
  '\u0000',
  '名前',
  '🐂🐂🐂',
  '\u202eevil',
  'e\u0301',
  "' OR '1'='1",
  '<script>alert(1)</script>',
  '{queueName}',
  '*',
  '?',
  '#',
  '__proto__',
  'constructor',
  '-1',
  '1e309',
  'null',
];

/** Path values written into the path as they are: dot segments, bad percent-encoding, extra slashes. */
export const rawPathStrings = [
  '..',
  '.',
  '%',
  '%zz',
  '%E0%A4%A',
  '%ff',
  '%00',
  '%2e%2e',
  '..%2f..%2f',
  '%2F%2F',
  'a/../b',
  '..;',
  '%c0%ae%c0%ae',
];

export const numberQueryStrings = [
  '-1',
  '-0',
  '0',
  '1.5',
  '1e309',
  '9'.repeat(400),
  'NaN',
  'Infinity',
  'abc',
  '',
  '0x10',
  '9007199254740993',
  ' 7 ',
  '1,2',
];
export const stringQueryStrings = [
  '',
  ' ',
  '名前🐂',
  '%',
  '../..',
  '__proto__',
  '\u0000',
  '*'.repeat(50),
  '[object Object]',
  'maybe',
  'TRUE',
];

export const wrongTypeValues: unknown[] = [123, -1, 1.5, 'text', true, null, [], {}, ['x'], { nested: { deep: [1] } }];

export const malformedJson = [
  '{',
  '{"a":',
  '{"a":1',
  '{"a":1}}',
  '{a:1}',
  "{'a':1}",
  '{"a":1,}',
  '[1,2',
  'nul',
  'tru',
  '{"a":"\\x"}',
  '\u0000',
  ' ',
  '{"a":1}garbage',
  '['.repeat(100_000),
  '{"a":'.repeat(20_000),
];
export const nonObjectJson = ['[]', '[1]', '"text"', '42', 'null', 'true'];

export const wrongContentTypes = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=bogus',
  'application/vnd.api+json',
  'APPLICATION/JSON',
  '',
];
