import type { JsonSchema, SchemaResolver } from './json-schema.js';
import { schemaResolver } from './json-schema.js';

export const httpMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof httpMethods)[number];

export interface ApiParameter {
  name: string;
  schema: JsonSchema;
  required: boolean;
}

/** One REST operation of the OpenAPI document, its schemas resolved enough to generate requests. */
export interface ApiOperation {
  method: HttpMethod;
  /** Template under /api, e.g. `/c/{connectionId}/queues/{queueName}`. */
  path: string;
  pathParams: ApiParameter[];
  queryParams: ApiParameter[];
  body?: { schema: JsonSchema; required: boolean };
}

export interface ApiDescription {
  operations: ApiOperation[];
  resolve: SchemaResolver;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Array<{ name: string; in: string; required?: boolean; schema?: JsonSchema }>;
        requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
      }
    >
  >;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** Reads every operation of a booted app's /api/openapi.json, so routes merged later are covered without editing the suite. */
export async function readApiDescription(api: string): Promise<ApiDescription> {
  const response = await fetch(`${api}/openapi.json`);
  if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
  const document = (await response.json()) as OpenApiDocument;
  const operations: ApiOperation[] = [];
  for (const [path, byMethod] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(byMethod)) {
      const upper = method.toUpperCase() as HttpMethod;
      if (!httpMethods.includes(upper)) continue;
      const parameters = operation.parameters ?? [];
      const toParameter = (parameter: (typeof parameters)[number]): ApiParameter => ({
        name: parameter.name,
        schema: parameter.schema ?? {},
        required: parameter.required ?? parameter.in === 'path',
      });
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      operations.push({
        method: upper,
        path,
        pathParams: parameters.filter((parameter) => parameter.in === 'path').map(toParameter),
        queryParams: parameters.filter((parameter) => parameter.in === 'query').map(toParameter),
        ...(bodySchema ? { body: { schema: bodySchema, required: operation.requestBody?.required ?? false } } : {}),
      });
    }
  }
  return { operations, resolve: schemaResolver(document) };
}

/** Whether the document has this operation (tests of routes other issues add run only once they exist). */
export function hasOperation(description: ApiDescription, method: HttpMethod, path: string): boolean {
  return description.operations.some((operation) => operation.method === method && operation.path === path);
}
