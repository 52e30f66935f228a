import type { RawRequest } from './http-exchange.js';
import { accepts, type SchemaResolver } from './json-schema.js';
import { coerceLikeAdapter } from './adapter-coercion.js';
import { sampleValue } from './schema-samples.js';
import type { ApiOperation } from './openapi-operations.js';

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

export interface Case extends RawRequest {
  /** Proved invalid by the schemas or by naming a resource that does not exist. */
  invalid: boolean;
}

export interface Parts {
  path?: Record<string, { value: string; raw?: boolean }>;
  query?: Array<[string, string]>;
  body?: { json: unknown } | { text: string | Buffer };
  headers?: Record<string, string>;
  method?: string;
}

/**
 * The cases of one operation, as the case families (path-and-query-cases.ts,
 * body-field-cases.ts, whole-body-cases.ts) add them: a case of a method
 * other than GET is kept only when proved invalid, so the suite never
 * changes data on purpose.
 */
export class OperationCases {
  readonly cases: Case[] = [];
  readonly baseBody: unknown;

  constructor(
    readonly operation: ApiOperation,
    readonly options: GeneratorOptions,
    readonly resolve: SchemaResolver,
  ) {
    this.baseBody = operation.body ? (sampleValue(operation.body.schema, resolve) ?? {}) : undefined;
  }

  get isRead(): boolean {
    return this.operation.method === 'GET';
  }

  /** Whether the route would take this JSON body, after the adapter's coercion. */
  bodyValid(json: unknown): boolean {
    const schema = this.operation.body?.schema ?? {};
    return accepts(schema, coerceLikeAdapter(schema, json, this.resolve), this.resolve);
  }

  /** A body the route would take for "no body": then a body the server ignores proves nothing. */
  get emptyBodyValid(): boolean {
    return !this.operation.body || this.bodyValid({});
  }

  add(label: string, parts: Parts, invalid: boolean): void {
    if (!this.isRead && !invalid) return;
    const path = this.buildPath(parts.path ?? {});
    const query = (parts.query ?? [])
      .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
      .join('&');
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
  withBody(): Pick<Parts, 'body'> {
    return this.baseBody === undefined ? {} : { body: { json: this.baseBody } };
  }
}

/** A value as a case label shows it: JSON, cut at 40 characters. */
export function preview(value: string): string {
  const shown = JSON.stringify(value);
  return shown.length > 40 ? `${shown.slice(0, 37)}…(${value.length})` : shown;
}
