import { gzipSync } from 'node:zlib';
import type { RawRequest } from './http-exchange.js';
import { accepts, acceptsQueryValue, coerceLikeAdapter, sampleValue, type JsonSchema, type SchemaResolver } from './json-schema.js';
import { httpMethods, type ApiDescription, type ApiOperation, type ApiParameter } from './openapi-operations.js';
import { seededRandom } from './seeded-random.js';

/**
 * Generates bad requests for every operation of the OpenAPI document. Reads
 * (GET) get anything; every other method gets only requests the schemas (or
 * an unknown resource) prove invalid, so the suite never changes data on
 * purpose and a changed snapshot means a real bug.
 */

export interface GeneratorOptions {
  /** Under which path the document's paths are served. */
  basePath: string;
  /** A valid value for each path parameter name (connectionId, queueName, jobId, key, ...). */
  validPathValues: Record<string, string>;
  seed: number;
  /** At most this many generated cases per operation (wrong methods come on top). */
  perOperation: number;
  /** The size limit of request bodies, to send one body just under and one just over. */
  maxBodyBytes: number;
}

/** Path values that are sent percent-encoded: the route matches, the value is odd. */
const encodedStrings = [
  '..', '.', '/', '../..', 'a/b', '%', '%25', '%2F', ' ', '  padded  ', 'tab\there', 'new\nline', '\u0000', '名前',
  '🐂🐂🐂', '\u202eevil', 'e\u0301', "' OR '1'='1", '<script>alert(1)</script>', '{queueName}', '*', '?', '#',
  '__proto__', 'constructor', '-1', '1e309', 'null',
];

/** Path values written into the path as they are: dot segments, bad percent-encoding, extra slashes. */
const rawPathStrings = ['..', '.', '%', '%zz', '%E0%A4%A', '%ff', '%00', '%2e%2e', '..%2f..%2f', '%2F%2F', 'a/../b', '..;', '%c0%ae%c0%ae'];

const numberQueryStrings = ['-1', '-0', '0', '1.5', '1e309', '9'.repeat(400), 'NaN', 'Infinity', 'abc', '', '0x10', '9007199254740993', ' 7 ', '1,2'];
const stringQueryStrings = ['', ' ', '名前🐂', '%', '../..', '__proto__', '\u0000', '*'.repeat(50), '[object Object]', 'maybe', 'TRUE'];

const wrongTypeValues: unknown[] = [123, -1, 1.5, 'text', true, null, [], {}, ['x'], { nested: { deep: [1] } }];

const malformedJson = [
  '{', '{"a":', '{"a":1', '{"a":1}}', '{a:1}', "{'a':1}", '{"a":1,}', '[1,2', 'nul', 'tru', '{"a":"\\x"}',
  '\u0000', ' ', '{"a":1}garbage', '['.repeat(100_000), '{"a":'.repeat(20_000),
];
const nonObjectJson = ['[]', '[1]', '"text"', '42', 'null', 'true'];

const wrongContentTypes = [
  'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml',
  'application/json; charset=latin1', 'application/json; charset=utf-16', 'application/json; charset=bogus',
  'application/vnd.api+json', 'APPLICATION/JSON', '',
];

interface Case extends RawRequest {
  /** Proved invalid by the schemas or by naming a resource that does not exist. */
  invalid: boolean;
}

interface Parts {
  path?: Record<string, { value: string; raw?: boolean }>;
  query?: Array<[string, string]>;
  body?: { json: unknown } | { text: string | Buffer };
  headers?: Record<string, string>;
  method?: string;
}

class OperationCases {
  readonly cases: Case[] = [];
  private readonly baseBody: unknown;

  constructor(
    private readonly operation: ApiOperation,
    private readonly options: GeneratorOptions,
    private readonly resolve: SchemaResolver,
  ) {
    this.baseBody = operation.body ? (sampleValue(operation.body.schema, resolve) ?? {}) : undefined;
  }

  get isRead(): boolean {
    return this.operation.method === 'GET';
  }

  /** Whether the route would take this JSON body, after the adapter's coercion. */
  private bodyValid(json: unknown): boolean {
    const schema = this.operation.body?.schema ?? {};
    return accepts(schema, coerceLikeAdapter(schema, json, this.resolve), this.resolve);
  }

  /** A body the route would take for "no body": then a body the server ignores proves nothing. */
  private get emptyBodyValid(): boolean {
    return !this.operation.body || this.bodyValid({});
  }

  add(label: string, parts: Parts, invalid: boolean): void {
    if (!this.isRead && !invalid) return;
    const path = this.buildPath(parts.path ?? {});
    const query = (parts.query ?? []).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&');
    const headers: Record<string, string> = { ...parts.headers };
    let body: string | Buffer | undefined;
    if (parts.body && 'json' in parts.body) {
      body = JSON.stringify(parts.body.json);
      headers['content-type'] ??= 'application/json';
    } else if (parts.body) {
      body = parts.body.text;
    }
    this.cases.push({
      label: `${this.operation.method} ${this.operation.path}: ${label}`,
      method: parts.method ?? this.operation.method,
      path: query ? `${path}?${query}` : path,
      headers,
      ...(body === undefined ? {} : { body }),
      invalid,
    });
  }

  private buildPath(overrides: Record<string, { value: string; raw?: boolean }>): string {
    const filled = this.operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
      const override = overrides[name];
      if (override) return override.raw ? override.value : encodeURIComponent(override.value);
      return encodeURIComponent(this.options.validPathValues[name] ?? 'x');
    });
    return `${this.options.basePath}${filled}`;
  }

  /** The base body, when the route takes one, so path and query cases reach the procedure. */
  private withBody(): Pick<Parts, 'body'> {
    return this.baseBody === undefined ? {} : { body: { json: this.baseBody } };
  }

  pathCases(): void {
    for (const parameter of this.operation.pathParams) {
      const values = [...encodedStrings, 'x'.repeat((parameter.schema.maxLength ?? 1000) + 1)];
      for (const value of values) {
        const invalid = this.pathValueInvalid(parameter, value);
        this.add(`path ${parameter.name}=${preview(value)}`, { path: { [parameter.name]: { value } }, ...this.withBody() }, invalid);
      }
      for (const value of rawPathStrings) {
        this.add(`raw path ${parameter.name}=${value}`, { path: { [parameter.name]: { value, raw: true } }, ...this.withBody() }, this.pathValueInvalid(parameter, value));
      }
    }
  }

  /**
   * An unknown connection is always a 404; another unknown resource proves
   * nothing where the route creates what it names (adding a job creates its
   * queue), so only routes that take no required body count it.
   */
  private pathValueInvalid(parameter: ApiParameter, value: string): boolean {
    if (value === this.options.validPathValues[parameter.name]) return false;
    if (!accepts(parameter.schema, value, this.resolve)) return true;
    return parameter.name === 'connectionId' || this.emptyBodyValid;
  }

  queryCases(): void {
    const base = this.withBody();
    for (const parameter of this.operation.queryParams) {
      const schema = this.resolve(parameter.schema);
      const types = [schema.type].flat();
      const values = [...(types.includes('integer') || types.includes('number') ? numberQueryStrings : stringQueryStrings)];
      if (schema.enum) values.push('nope', String(schema.enum[0]).toUpperCase(), `${schema.enum[0]},${schema.enum[0]}`);
      values.push('q'.repeat((schema.maxLength ?? 2000) + 1));
      for (const value of values) {
        // The adapter drops empty query values: `?prefix=` is no prefix at all.
        const invalid = value === '' ? parameter.required : !acceptsQueryValue(parameter.schema, value, this.resolve);
        this.add(`query ${parameter.name}=${preview(value)}`, { query: [[parameter.name, value]], ...base }, invalid);
      }
      this.add(`query ${parameter.name} twice`, { query: [[parameter.name, '1'], [parameter.name, '2']], ...base }, false);
    }
    this.add('unknown query parameter', { query: [['unexpected', '1'], ['__proto__', 'x']], ...base }, false);
    this.add('unknown connection', { path: { connectionId: { value: 'no-such-connection' } }, ...base }, this.operation.pathParams.some((parameter) => parameter.name === 'connectionId'));
  }

  bodyCases(): void {
    const body = this.operation.body;
    if (!body) return;
    const schema = this.resolve(body.schema);
    const base = (this.baseBody ?? {}) as Record<string, unknown>;
    const jsonCase = (label: string, json: unknown) => this.add(label, { body: { json } }, !this.bodyValid(json));
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      for (const value of [...wrongTypeValues, ...this.edgeValues(property)]) jsonCase(`body ${name}=${preview(JSON.stringify(value))}`, { ...base, [name]: value });
      const nested = this.resolve(property);
      for (const [inner, innerSchema] of Object.entries(nested.properties ?? {})) {
        const parent = (typeof base[name] === 'object' && base[name] !== null ? base[name] : {}) as Record<string, unknown>;
        for (const value of [...wrongTypeValues.slice(0, 6), ...this.edgeValues(innerSchema)]) {
          jsonCase(`body ${name}.${inner}=${preview(JSON.stringify(value))}`, { ...base, [name]: { ...parent, [inner]: value } });
        }
      }
    }
    for (const name of schema.required ?? []) {
      const { [name]: _dropped, ...rest } = base;
      jsonCase(`body without ${name}`, rest);
      jsonCase(`body without ${name}, with extra fields`, { ...rest, unexpected: 'x', constructor: { prototype: { polluted: true } } });
    }
    jsonCase('body with extra fields', { ...base, unexpected: 'x' });
    const pollution = '"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}';
    const rest = JSON.stringify(withoutFirstRequired(schema, base)).slice(1, -1);
    this.rawJsonCase('body with __proto__ and constructor.prototype', `{${[pollution, rest].filter(Boolean).join(',')}}`);
    const zeroes = JSON.stringify(Object.fromEntries(Object.keys(schema.properties ?? {}).map((name) => [name, 0])));
    this.rawJsonCase('1e400 (Infinity) in every field', zeroes.replace(/:0/g, ':1e400'));
    this.hugeCases(body.schema, base);
  }

  /** A JSON text the JSON helpers cannot write; proved invalid by the schema after JSON.parse, as the server parses it. */
  private rawJsonCase(label: string, text: string): void {
    const invalid = !this.bodyValid(JSON.parse(text));
    this.add(label, { body: { text }, headers: { 'content-type': 'application/json' } }, invalid);
  }

  /** Values at and past the limits the property's schema states. */
  private edgeValues(property: JsonSchema): unknown[] {
    const schema = this.resolve(property);
    const values: unknown[] = [];
    const types = [schema.type].flat();
    if (types.includes('string') || schema.maxLength !== undefined) values.push('', 'y'.repeat((schema.maxLength ?? 4000) + 1), '名前🐂\u202e\u0000', '../..%2F%');
    if (types.includes('integer') || types.includes('number')) values.push(-1, -(2 ** 53), 2 ** 53 + 2, 1e308, 1.5, (schema.maximum ?? 1e9) + 1, (schema.minimum ?? 0) - 1);
    if (schema.enum) values.push('not-a-choice');
    if (types.includes('array')) values.push([null], Array.from({ length: (schema.maxItems ?? 100) + 1 }, () => 'z'));
    return values;
  }

  /** One body just under the size limit (a long string where the schema allows less) and one just over. */
  private hugeCases(schema: JsonSchema, base: Record<string, unknown>): void {
    const stringProperty = Object.entries(this.resolve(schema).properties ?? {}).find(([, property]) => [this.resolve(property).type].flat().includes('string'));
    const name = stringProperty?.[0] ?? 'unexpected';
    const under = { ...base, [name]: 'h'.repeat(this.options.maxBodyBytes - 4096) };
    this.add(`body ${name} just under the size limit`, { body: { json: under } }, !this.bodyValid(under));
    this.add('body just over the size limit', { body: { json: { ...base, [name]: 'h'.repeat(this.options.maxBodyBytes + 10) } } }, true);
  }

  /** Malformed JSON, bodies that are not objects, wrong content types and encodings. */
  wholeBodyCases(): void {
    if (this.isRead) {
      this.add('GET with a JSON body', { body: { json: { unexpected: true } } }, false);
      return;
    }
    const json = { 'content-type': 'application/json' };
    for (const text of [...malformedJson, ...nonObjectJson]) this.add(`body ${preview(text)}`, { body: { text }, headers: json }, true);
    // JSON parsers skip a byte order mark: this one is an empty object.
    this.add('body {} after a byte order mark', { body: { text: '\uFEFF{}' }, headers: json }, !this.emptyBodyValid);
    this.add('empty body with a JSON content type', { body: { text: '' }, headers: json }, !this.emptyBodyValid);
    // A body the server may ignore (wrong type) proves nothing unless "no body" is invalid too.
    const invalidBody = JSON.stringify({ unexpected: 'x' });
    const ignoredIsInvalid = !this.emptyBodyValid && !this.bodyValid({ unexpected: 'x' });
    for (const contentType of wrongContentTypes) {
      this.add(`content type "${contentType}"`, { body: { text: invalidBody }, headers: { 'content-type': contentType } }, ignoredIsInvalid);
    }
    this.add('gzip that is not gzip', { body: { text: 'not gzip at all' }, headers: { ...json, 'content-encoding': 'gzip' } }, true);
    this.add('gzip of malformed JSON', { body: { text: gzipSync('{"a":') }, headers: { ...json, 'content-encoding': 'gzip' } }, true);
    this.add('brotli encoding', { body: { text: invalidBody }, headers: { ...json, 'content-encoding': 'br' } }, ignoredIsInvalid);
    this.add('unknown encoding', { body: { text: invalidBody }, headers: { ...json, 'content-encoding': 'x-bogus' } }, ignoredIsInvalid);
  }

  headerCases(): void {
    this.add('odd request id', { headers: { 'x-request-id': `${'r'.repeat(300)}/../` }, ...this.withBody() }, this.isRead);
    this.add('odd accept', { headers: { accept: 'application/xml' }, ...this.withBody() }, this.isRead);
  }
}

function withoutFirstRequired(schema: JsonSchema, base: Record<string, unknown>): Record<string, unknown> {
  const first = schema.required?.[0];
  if (first === undefined) return base;
  const { [first]: _dropped, ...rest } = base;
  return rest;
}

function preview(value: string): string {
  const shown = JSON.stringify(value);
  return shown.length > 40 ? `${shown.slice(0, 37)}…(${value.length})` : shown;
}

/** Requests to methods a path does not define, with valid path values (nothing runs). */
function wrongMethodCases(description: ApiDescription, options: GeneratorOptions): RawRequest[] {
  const byPath = new Map<string, Set<string>>();
  for (const operation of description.operations) {
    byPath.set(operation.path, (byPath.get(operation.path) ?? new Set()).add(operation.method));
  }
  const cases: RawRequest[] = [];
  for (const [template, defined] of byPath) {
    const path = options.basePath + template.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(options.validPathValues[name] ?? 'x'));
    for (const method of [...httpMethods, 'OPTIONS', 'TRACE', 'PROPFIND']) {
      if (defined.has(method)) continue;
      cases.push({ label: `${method} ${template}: method not defined`, method, path, headers: { 'content-type': 'application/json' }, body: '{}' });
    }
    if (defined.has('GET')) cases.push({ label: `HEAD ${template}`, method: 'HEAD', path });
  }
  return cases;
}

/** The whole deterministic set: up to `perOperation` cases per operation, plus wrong methods. */
export function generateBadRequests(description: ApiDescription, options: GeneratorOptions): RawRequest[] {
  const random = seededRandom(options.seed);
  const requests: Case[] = [];
  for (const operation of description.operations) {
    const cases = new OperationCases(operation, options, description.resolve);
    cases.pathCases();
    cases.queryCases();
    cases.bodyCases();
    cases.wholeBodyCases();
    cases.headerCases();
    // The two size-limit bodies are always sent; the rest is a seeded sample.
    const [sized, others] = partition(cases.cases, (item) => item.label.includes('size limit'));
    requests.push(...sized, ...random.shuffle(others).slice(0, options.perOperation - sized.length));
  }
  return [...requests.map(({ invalid: _invalid, ...request }) => request), ...wrongMethodCases(description, options)];
}

function partition<T>(items: T[], test: (item: T) => boolean): [T[], T[]] {
  return [items.filter(test), items.filter((item) => !test(item))];
}
