import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { identifyRequest, type Identity } from '../auth/identity.js';
import type { Logger } from '../logger.js';
import type { Services } from '../services.js';

/** How a call reached the procedures: REST path params arrive percent-encoded, tRPC input does not. */
export type Transport = 'rest' | 'trpc' | 'internal';

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
}

function once<T>(compute: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => (result ??= compute());
}

function identifier(services: Services, req?: Request, res?: Response): () => Promise<Identity | null> {
  return once(() => identifyRequest(services, req, res));
}

export function createInnerContext(services: Services, transport: Transport = 'internal'): Context {
  const requestId = randomUUID();
  return { services, transport, requestId, logger: services.logger.child({ requestId }), identify: identifier(services) };
}

/** Context factory for an HTTP transport; pino-http has already given the request its id and logger. */
export function createHttpContextFactory(services: Services, transport: Exclude<Transport, 'internal'>) {
  return ({ req, res }: { req: Request; res: Response }): Context => ({
    services,
    transport,
    requestId: String(req.id),
    logger: req.log,
    req,
    res,
    identify: identifier(services, req, res),
  });
}
