import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Permission } from '../../contracts/permissions.js';
import type { Context } from './context.js';
import { describeError } from './errors.js';

/**
 * The only place that calls initTRPC. Every error leaves with the same data
 * (`code`, `httpStatus`, `message`, route-specific `details`, input `issues`),
 * never with a stack trace: stacks go to the log.
 */
/**
 * Procedure metadata: the REST mapping, the action checked against the
 * permission table, and a stricter rate limit where one applies (connection
 * tests get theirs from their permission, `connections.test`).
 */
export type ProcedureMeta = OpenApiMeta<{
  permission?: Permission;
  /** REST status of a success when it is not 200 (e.g. 201 on create); see server/http/success-status.ts. */
  successStatus?: 201 | 202;
  strictLimit?: 'credentials' | 'connectionTest';
}>;

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    errorFormatter({ shape, error }) {
      const description = describeError(error);
      return {
        message: description.message,
        code: shape.code,
        data: {
          code: description.code,
          httpStatus: description.httpStatus,
          message: description.message,
          details: description.details,
          ...(description.issues ? { issues: description.issues } : {}),
          path: shape.data.path,
        },
      };
    },
  });

export const router = t.router;
export const middleware = t.middleware;
export const baseProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;
