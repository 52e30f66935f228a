import type { AnyTRPCRouter } from '@trpc/server';
import type { ProcedureMeta } from '../trpc/init.js';

export interface DeclaredSuccessStatus {
  /** The procedure's path in the router, e.g. `jobs.add`. */
  procedure: string;
  /** Its REST method and path, when it has one. */
  method?: string;
  path?: string;
  status: number;
}

/** Every procedure that declares a `successStatus` other than 200 in its meta. */
export function declaredSuccessStatuses(router: AnyTRPCRouter): DeclaredSuccessStatus[] {
  const procedures = Object.entries(router._def.procedures as Record<string, { _def: { meta?: ProcedureMeta } }>);
  return procedures.flatMap(([procedure, { _def }]) => {
    const status = _def.meta?.successStatus;
    if (!status || status === 200) return [];
    return [{ procedure, method: _def.meta?.openapi?.method, path: _def.meta?.openapi?.path, status }];
  });
}

/**
 * For trpc-to-openapi's `responseMeta`: a successful call answers with its
 * procedure's `successStatus`; errors keep the status the error table gives.
 */
export function successResponseMeta(router: AnyTRPCRouter) {
  const statuses = new Map(declaredSuccessStatuses(router).map((declared) => [declared.procedure, declared.status]));
  return ({ paths, errors }: { paths?: readonly string[] | undefined; errors: readonly unknown[] }) => {
    const status = errors.length === 0 && paths?.length === 1 ? statuses.get(paths[0]!) : undefined;
    return status ? { status } : {};
  };
}
