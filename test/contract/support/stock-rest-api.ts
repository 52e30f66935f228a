import express, { type NextFunction, type Request, type Response } from 'express';
import type { AnyRouter } from '@trpc/server';
import {
  createOpenApiExpressMiddleware,
  createProcedureCache,
  normalizePath,
  type OpenApiMethod,
} from 'trpc-to-openapi';
import type { ErrorBody } from '../../../contracts/error-body.js';
import { jsonBodyErrors, maxBodyBytes, normalizeRestBody, parseJsonBody } from '../../../server/http/json-body.js';
import { rejectDeepBody } from '../../../server/http/json-depth.js';
import type { RestApi, RestApiOptions } from '../../../server/http/rest/rest-api.js';
import { successStatusOf } from '../../../server/http/success-status.js';
import { procedureMetaOf } from '../../../server/trpc/trpc-internals.js';

interface TrpcErrorShape {
  message?: string;
  data?: {
    code?: string;
    httpStatus?: number;
    message?: string;
    details?: Record<string, unknown>;
    issues?: unknown[];
  };
}

/**
 * trpc-to-openapi writes its own error body (the tRPC shape, `code` the tRPC
 * code); ours is `{ message, code, ...details, issues? }` with the status
 * the description names (410 has no tRPC code). Rewritten on the way out.
 */
function rewriteErrorBody(res: Response): void {
  const end = res.end.bind(res) as (chunk?: unknown, ...rest: unknown[]) => Response;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (res.statusCode >= 400 && typeof chunk === 'string' && chunk.startsWith('{')) {
      const raw = JSON.parse(chunk) as TrpcErrorShape;
      const data = raw.data ?? {};
      if (data.httpStatus && data.httpStatus !== res.statusCode) res.statusCode = data.httpStatus;
      const message = data.message ?? raw.message ?? 'Internal error';
      const body: ErrorBody = { message, code: data.code ?? 'INTERNAL_ERROR', ...data.details };
      if (data.issues) body.issues = data.issues as ErrorBody['issues'];
      chunk = JSON.stringify(body);
    }
    return end(chunk, ...rest);
  }) as Response['end'];
}

/**
 * The REST API served by trpc-to-openapi's stock express adapter
 * (`createOpenApiExpressMiddleware`, which calls procedures through tRPC's
 * own `createCaller`), with only what our contract adds around it: the body
 * reading every REST request gets (json-body.ts, json-depth.ts), success
 * statuses from `meta.successStatus`, and our error body. A request the
 * adapter has no procedure for goes on to the app's other routes. No
 * request is answered ahead of express (`getRouteOf` matches nothing).
 *
 * The conformance test (test/contract/rest-conformance.test.ts) holds our
 * façade (server/http/rest/) to what this answers; the bench compares the two.
 */
export function stockRestApi(router: AnyRouter, options: RestApiOptions): RestApi {
  const handler = createOpenApiExpressMiddleware({
    router,
    createContext: ({ req, res }) => options.createContext({ req: req as Request, res: res as Response }),
    onError: ({ error, path, req }) => options.onError({ error, path, req: req as Request }),
    responseMeta: ({ paths, errors, data }) => {
      if (errors.length > 0 || paths?.length !== 1) return {};
      return { status: successStatusOf(procedureMetaOf(router, paths[0]!), data?.[0]) };
    },
    maxBodySize: maxBodyBytes,
  });
  const procedureFor = createProcedureCache(router);
  const api = express.Router();
  api.use(
    options.basePath ?? '/',
    (req: Request, res: Response, next: NextFunction) => {
      if (!procedureFor(req.method as OpenApiMethod, normalizePath(req.path))) return next('router');
      rewriteErrorBody(res);
      next();
    },
    parseJsonBody,
    jsonBodyErrors,
    rejectDeepBody,
    normalizeRestBody,
    (req: Request, res: Response) => void handler(req, res),
  );
  return { middleware: api, getRouteOf: () => undefined, answerGet: () => undefined };
}
