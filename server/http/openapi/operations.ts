import type { AnyRouter } from '@trpc/server';
import type { OpenAPIObject } from 'trpc-to-openapi';
import type { RouteErrors } from '../../../contracts/error-codes.js';
import type { ProcedureMeta } from '../../trpc/init.js';
import { partsOf, proceduresOf } from '../../trpc/trpc-internals.js';

/** What the document needs to know about one REST operation, read from its procedure. */
export interface OperationFacts {
  /** Lower-case HTTP method, as document keys are. */
  method: string;
  path: string;
  /** No permission: anyone may call it (it may still read a session). */
  public: boolean;
  mutation: boolean;
  hasInput: boolean;
  errors: RouteErrors;
  meta: ProcedureMeta;
  /** The procedure's input parsers (zod schemas), in the order the chain adds them; none for hand-written routes. */
  inputs?: readonly unknown[];
  /** The generated operation object, changed in place by the document builder. */
  operation: OperationObject;
}

// biome-ignore lint/suspicious/noExplicitAny: the generated operation is edited in place at any depth
export type OperationObject = Record<string, any>;

/** The REST operations of a router (every procedure with `meta.openapi`) as generated in `document`. */
export function operationsOf(router: AnyRouter, document: OpenAPIObject): OperationFacts[] {
  return Object.values(proceduresOf(router)).flatMap((procedure) => {
    const { meta, type, inputs } = partsOf(procedure);
    if (!meta?.openapi) return [];
    const place = { method: meta.openapi.method.toLowerCase(), path: meta.openapi.path };
    const operation = operationIn(document, place);
    return [
      {
        ...place,
        public: !meta.permission,
        mutation: type === 'mutation',
        hasInput: Boolean(operation.parameters?.length || operation.requestBody),
        errors: meta.errors ?? {},
        meta,
        inputs,
        operation,
      },
    ];
  });
}

/** The generated operation object of a route. */
export function operationIn(document: OpenAPIObject, facts: Pick<OperationFacts, 'method' | 'path'>): OperationObject {
  const operation = (document.paths?.[facts.path] as Record<string, OperationObject> | undefined)?.[facts.method];
  if (!operation) throw new Error(`No ${facts.method} ${facts.path} in the document`);
  return operation;
}
