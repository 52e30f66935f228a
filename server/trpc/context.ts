import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
// req.id and req.log: server/http/request-observation.ts gives every request both.
import type {} from '../http/request-observation.js';
import { identifyRequest, type Identity } from '../auth/identity.js';
import { lazyLogger, type Logger } from '../logger.js';
import type { Services } from '../services.js';

/** How a call reached the procedures: REST path params arrive percent-encoded, tRPC and MCP input do not. */
export type Transport = 'rest' | 'trpc' | 'mcp' | 'internal';

/**
 * What every procedure receives. The inner part (services, no request) is
 * what in-process callers and tests build with `createInnerContext`.
 */
export interface Context {
  services: Services;
  logger: Logger;
  requestId: string;
  transport: Transport;
  req?: Request;
  res?: Response;
  /** Who presented credentials (cookie, bearer token, authless); resolved once per request, on first use. */
  identify(): Promise<Identity | null>;
  /** The reason an MCP tool call gives in its `reason` argument; others give theirs in the header (see callReason). */
  reason?: string;
}

/** Computed once per request; a failure is not kept, so a retried call (see retry-terminated-read) asks again. */
function once<T>(compute: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () =>
    (result ??= compute().catch((error: unknown) => {
      result = undefined;
      throw error;
    }));
}

function identifier(services: Services, req?: Request, res?: Response): () => Promise<Identity | null> {
  return once(() => identifyRequest(services, req, res));
}

/** `identify`: who an in-process caller acts as (createBullpen); without it, nobody (public procedures only). */
export function createInnerContext(
  services: Services,
  transport: Transport = 'internal',
  identify?: () => Promise<Identity | null>,
): Context {
  const requestId = randomUUID();
  return {
    services,
    transport,
    requestId,
    logger: services.logger.child({ requestId }),
    identify: identify ? once(identify) : identifier(services),
  };
}

/**
 * Context factory for an HTTP transport; the request observation has given
 * the request its id and logger. Without `res` (MCP, whose transport writes
 * the response itself) nothing sets headers or cookies.
 */
export function createHttpContextFactory(services: Services, transport: Exclude<Transport, 'internal'>) {
  return ({ req, res }: { req: Request; res?: Response }): Context => ({
    services,
    transport,
    requestId: String(req.id),
    logger: lazyLogger(() => req.log),
    req,
    res,
    identify: identifier(services, req, res),
  });
}
