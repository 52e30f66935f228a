import { encodedStrings, numberQueryStrings, rawPathStrings, stringQueryStrings } from './bad-request-values.js';
import { accepts, acceptsQueryValue } from './json-schema.js';
import type { ApiParameter } from './openapi-operations.js';
import { preview, type OperationCases } from './operation-cases.js';

/** Odd values in path parameters (percent-encoded and raw), in query parameters, and in headers. */

export function pathCases(cases: OperationCases): void {
  for (const parameter of cases.operation.pathParams) {
    const values = [...encodedStrings, 'x'.repeat((parameter.schema.maxLength ?? 1000) + 1)];
    for (const value of values) {
      const invalid = pathValueInvalid(cases, parameter, value);
      cases.add(
        `path ${parameter.name}=${preview(value)}`,
        { path: { [parameter.name]: { value } }, ...cases.withBody() },
        invalid,
      );
    }
    for (const value of rawPathStrings) {
      cases.add(
        `raw path ${parameter.name}=${value}`,
        { path: { [parameter.name]: { value, raw: true } }, ...cases.withBody() },
        pathValueInvalid(cases, parameter, value),
      );
    }
  }
}

/**
 * An unknown connection is always a 404; another unknown resource proves
 * nothing where the route creates what it names (adding a job creates its
 * queue), so only routes that take no required body count it.
 */
function pathValueInvalid(cases: OperationCases, parameter: ApiParameter, value: string): boolean {
  if (value === cases.options.validPathValues[parameter.name]) return false;
  if (!accepts(parameter.schema, value, cases.resolve)) return true;
  return parameter.name === 'connectionId' || cases.emptyBodyValid;
}

export function queryCases(cases: OperationCases): void {
  const base = cases.withBody();
  for (const parameter of cases.operation.queryParams) {
    const schema = cases.resolve(parameter.schema);
    const types = [schema.type].flat();
    const values = [
      ...(types.includes('integer') || types.includes('number') ? numberQueryStrings : stringQueryStrings),
    ];
    if (schema.enum) values.push('nope', String(schema.enum[0]).toUpperCase(), `${schema.enum[0]},${schema.enum[0]}`);
    values.push('q'.repeat((schema.maxLength ?? 2000) + 1));
    for (const value of values) {
      // The adapter drops empty query values: `?prefix=` is no prefix at all.
      const invalid = value === '' ? parameter.required : !acceptsQueryValue(parameter.schema, value, cases.resolve);
      cases.add(`query ${parameter.name}=${preview(value)}`, { query: [[parameter.name, value]], ...base }, invalid);
    }
    cases.add(
      `query ${parameter.name} twice`,
      {
        query: [
          [parameter.name, '1'],
          [parameter.name, '2'],
        ],
        ...base,
      },
      false,
    );
  }
  cases.add(
    'unknown query parameter',
    {
      query: [
        ['unexpected', '1'],
        ['__proto__', 'x'],
      ],
      ...base,
    },
    false,
  );
  cases.add(
    'unknown connection',
    { path: { connectionId: { value: 'no-such-connection' } }, ...base },
    cases.operation.pathParams.some((parameter) => parameter.name === 'connectionId'),
  );
}

export function headerCases(cases: OperationCases): void {
  cases.add(
    'odd request id',
    { headers: { 'x-request-id': `${'r'.repeat(300)}/../` }, ...cases.withBody() },
    cases.isRead,
  );
  cases.add('odd accept', { headers: { accept: 'application/xml' }, ...cases.withBody() }, cases.isRead);
}
