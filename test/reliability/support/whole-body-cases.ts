import { gzipSync } from 'node:zlib';
import { malformedJson, nonObjectJson, wrongContentTypes } from './bad-request-values.js';
import { preview, type OperationCases } from './operation-cases.js';

/** Malformed JSON, bodies that are not objects, wrong content types and encodings. */
export function wholeBodyCases(cases: OperationCases): void {
  if (cases.isRead) {
    cases.add('GET with a JSON body', { body: { json: { unexpected: true } } }, false);
    return;
  }
  const json = { 'content-type': 'application/json' };
  for (const text of [...malformedJson, ...nonObjectJson])
    cases.add(`body ${preview(text)}`, { body: { text }, headers: json }, true);
  // JSON parsers skip a byte order mark: this one is an empty object.
  cases.add('body {} after a byte order mark', { body: { text: '\uFEFF{}' }, headers: json }, !cases.emptyBodyValid);
  cases.add('empty body with a JSON content type', { body: { text: '' }, headers: json }, !cases.emptyBodyValid);
  // A body the server may ignore (wrong type) proves nothing unless "no body" is invalid too.
  const invalidBody = JSON.stringify({ unexpected: 'x' });
  const ignoredIsInvalid = !cases.emptyBodyValid && !cases.bodyValid({ unexpected: 'x' });
  for (const contentType of wrongContentTypes) {
    cases.add(
      `content type "${contentType}"`,
      { body: { text: invalidBody }, headers: { 'content-type': contentType } },
      ignoredIsInvalid,
    );
  }
  cases.add(
    'gzip that is not gzip',
    { body: { text: 'not gzip at all' }, headers: { ...json, 'content-encoding': 'gzip' } },
    true,
  );
  cases.add(
    'gzip of malformed JSON',
    { body: { text: gzipSync('{"a":') }, headers: { ...json, 'content-encoding': 'gzip' } },
    true,
  );
  cases.add(
    'brotli encoding',
    { body: { text: invalidBody }, headers: { ...json, 'content-encoding': 'br' } },
    ignoredIsInvalid,
  );
  cases.add(
    'unknown encoding',
    { body: { text: invalidBody }, headers: { ...json, 'content-encoding': 'x-bogus' } },
    ignoredIsInvalid,
  );
}
