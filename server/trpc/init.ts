import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { RouteErrors } from '../../contracts/error-codes.js';
import type { Permission } from '../../contracts/permissions.js';
import type { QueueUse } from '../bullmq/resolve-queue.js';
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
/** What a destructive queue action removed, told from its raw input and its result. */
export type RemovalDescriber = (input: never, result: never) => Record<string, unknown>;

export type ProcedureMeta = OpenApiMeta<{
  permission?: Permission;
  /** REST status of a success when it is not 200 (e.g. 201 on create); see server/http/success-status.ts. */
  successStatus?: 201 | 202;
  /** The route may run as a background task (`async: true`): an answer `{ taskId }` is then 202. */
  runsAsTask?: boolean;
  strictLimit?: 'credentials' | 'connectionTest';
  /**
   * The errors this route gives beyond those every route of its kind gives
   * (server/http/openapi/error-responses.ts adds those), each with when it
   * happens. The API document lists every status with exactly these codes.
   */
  errors?: RouteErrors;
  /** Refuses API tokens: only a signed-in session (cookie) may call it. */
  sessionOnly?: true;
  /** A request body that works as is: the docs page pre-fills it in Try-it-out. Default `{}` when no field is required. */
  bodyExample?: Record<string, unknown>;
  /** Body forms that exclude each other, as field lists (`name?` = optional in that form); documented as `oneOf`. */
  bodyAlternatives?: ReadonlyArray<readonly string[]>;
  /** How a queueProcedure uses its `:queueName` (default `read`: 404 when missing); see QueueUse. */
  queue?: QueueUse;
  /**
   * `in-script`: a read route whose one script checks the queue's meta key
   * itself (and answers the same 404 through ctx.queueLookup), so
   * queueProcedure skips its own EXISTS round trip and leaves ctx.queue
   * unresolved (see server/trpc/middleware/resolve-route-queue.ts).
   */
  queueCheck?: 'in-script';
  /**
   * `queue`: the route always asks for `confirmName` equal to the path's queue
   * name (purge, obliterate, delete), whatever the connection's protection;
   * decided with the protection on the parsed input (decide-on-parsed-input.ts).
   */
  confirm?: 'queue';
  /** A destructive queue action: the audit middleware also logs a `queue.action` line saying what it removed. */
  removes?: RemovalDescriber;
  /**
   * Where the resource the answer names lives, as a path template under the API
   * (`/connections/{id}`): placeholders are filled from the answer's fields,
   * else the input's. REST answers carry it as `Location` (a create's 201, a
   * task's 202); see server/trpc/middleware/announce-location.ts.
   */
  location?: string;
  /**
   * Where a route keeps apart from a request convention (docs/api.md, "Request
   * conventions"), and why: the document shows the reason in its description,
   * and test/contract/conventions.test.ts accepts the route only with it.
   */
  differs?: Partial<Record<Convention, string>>;
  /** Honours `Idempotency-Key` (a job add); routes run as tasks always do. See server/trpc/middleware/honour-idempotency-key.ts. */
  idempotent?: true;
}>;

/** The conventions a kind of answer follows (docs/api.md, "Request conventions"). */
export type Convention = 'create' | 'pagination' | 'delete' | 'single value';

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
