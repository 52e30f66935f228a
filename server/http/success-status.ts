import type { AnyRouter } from '@trpc/server';
import type { OpenAPIObject } from 'trpc-to-openapi';
import type { ProcedureMeta } from '../trpc/init.js';
import { procedureMetaOf, proceduresOf } from '../trpc/trpc-internals.js';

/**
 * Procedures declare a non-200 success (`meta.successStatus`, e.g. 201 on
 * create) once; these two functions make the REST handler answer with it and
 * the OpenAPI document describe it. tRPC transport answers stay 200.
 */

/** The REST status of a procedure's success: 202 for a route run as a task that answered `{ taskId }`, else its declared status or 200. */
export function successStatusOf(meta: ProcedureMeta | undefined, data: unknown): number {
  if (meta?.runsAsTask && isTaskAccepted(data)) return 202;
  return meta?.successStatus ?? 200;
}

const isTaskAccepted = (value: unknown): boolean => typeof (value as { taskId?: unknown } | null)?.taskId === 'string';

/** Renames the generated `200` response of such operations to their declared status. */
export function applySuccessStatuses(document: OpenAPIObject, router: AnyRouter): OpenAPIObject {
  for (const path of Object.keys(proceduresOf(router))) {
    const meta = procedureMetaOf(router, path);
    if (!meta?.successStatus || !meta.openapi) continue;
    const operation = document.paths?.[meta.openapi.path]?.[meta.openapi.method.toLowerCase() as 'post'];
    if (!operation?.responses?.['200']) continue;
    operation.responses[String(meta.successStatus)] = operation.responses['200'];
    delete operation.responses['200'];
  }
  return document;
}
