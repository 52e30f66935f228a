import { OpenAPIBackend } from 'openapi-backend';
import { expect } from 'vitest';
import { fillPath } from '../helpers/routes.js';

/** One request of the document's operations: `operation` is `METHOD /path` as the document writes it. */
export interface DocumentedCall {
  operation: string;
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** Sent as is (with `headers`' content type), instead of `body`. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface CheckedResponse {
  status: number;
  body: any;
  headers: Headers;
  text: string;
}

/** Sends one call to the API at `api` (`http://…/api`); a JSON answer is parsed into `body`. */
export async function sendCall(api: string, call: DocumentedCall): Promise<CheckedResponse> {
  const [method, path] = call.operation.split(' ') as [string, string];
  const query = call.query ? `?${new URLSearchParams(call.query)}` : '';
  const hasBody = call.body !== undefined || call.rawBody !== undefined;
  const response = await fetch(`${api}${fillPath(path, call.path ?? {})}${query}`, {
    method,
    headers: {
      ...(hasBody && call.rawBody === undefined ? { 'content-type': 'application/json' } : {}),
      ...call.headers,
    },
    body: call.rawBody ?? (call.body === undefined ? undefined : JSON.stringify(call.body)),
  });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  const body = contentType.split(';')[0]!.trim() === 'application/json' ? JSON.parse(text) : text; // not NDJSON
  return { status: response.status, body, headers: response.headers, text };
}

type Operation = { operationId: string; responses: Record<string, { content?: Record<string, unknown> }> };

/**
 * Sends requests and checks each answer against the OpenAPI document with an
 * independent validator (openapi-backend, ajv): the status must be one the
 * operation lists, and a JSON body must match that status's schema. Records
 * which statuses each operation was seen to answer.
 */
export class DocumentValidator {
  readonly seen = new Map<string, Set<number>>();
  private readonly backend: OpenAPIBackend;

  protected constructor(
    private readonly document: any,
    protected readonly api: string,
  ) {
    // quick: no OpenAPI 3.0 schema check of the document (it is 3.1; swagger-parser and the linters check it).
    this.backend = new OpenAPIBackend({ definition: structuredClone(document), quick: true, validate: true });
  }

  static async create(document: any, api: string): Promise<DocumentValidator> {
    const validator = new DocumentValidator(document, api);
    await validator.ready();
    return validator;
  }

  protected async ready(): Promise<void> {
    await this.backend.init();
  }

  operation(name: string): Operation {
    const [method, path] = name.split(' ') as [string, string];
    const operation = this.document.paths[path]?.[method.toLowerCase()];
    if (!operation) throw new Error(`${name} is not in the document`);
    return operation;
  }

  /** Resolves the response object of a status (following a `components.responses` reference). */
  private responseOf(operation: Operation, status: number) {
    const response = operation.responses[String(status)] as
      | { $ref?: string; content?: Record<string, unknown> }
      | undefined;
    if (!response?.$ref) return response;
    return this.document.components.responses[response.$ref.split('/').pop()!];
  }

  /** Sends the call, expects `status`, and validates status and body against the document. */
  check(call: DocumentedCall, status: number): Promise<CheckedResponse> {
    return this.checkAt(this.api, call, status);
  }

  /** `check`, sent to another API base (a second app on the same services). */
  protected async checkAt(api: string, call: DocumentedCall, status: number): Promise<CheckedResponse> {
    const operation = this.operation(call.operation);
    const response = await sendCall(api, call);
    const contentType = response.headers.get('content-type') ?? '';
    const what = `${call.operation} → ${response.status} ${response.text.slice(0, 500)}`;
    expect(response.status, what).toBe(status);
    this.expectDocumented(call.operation, operation, response.status, contentType, response.body);
    return response;
  }

  /** The status is listed for the operation, and the body matches (JSON) or the media type is listed. */
  expectDocumented(name: string, operation: Operation, status: number, contentType: string, body: unknown): void {
    const response = this.responseOf(operation, status);
    expect(response, `${name} does not list status ${status}`).toBeDefined();
    const mediaType = contentType.split(';')[0]!.trim();
    expect(Object.keys(response!.content ?? {}), `${name} ${status} media type`).toContain(mediaType);
    if (mediaType === 'application/json') {
      const result = this.backend.validateResponse(body, operation.operationId, status);
      expect(result.errors ?? [], `${name} ${status} body ${JSON.stringify(body).slice(0, 500)}`).toEqual([]);
    }
    const statuses = this.seen.get(name) ?? new Set<number>();
    this.seen.set(name, statuses.add(status));
  }

  /** Every operation of the document, as `METHOD /path`. */
  operations(): string[] {
    return Object.entries<Record<string, unknown>>(this.document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
  }
}
