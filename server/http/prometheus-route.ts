import type { Request, Response } from 'express';
import { scrapeConnections } from '../../domain/metrics/scrape-connections.js';
import { AppError } from '../../domain/errors.js';
import { authorize } from '../auth/authorize.js';
import { resolveActor } from '../auth/resolve-actor.js';
import type { Services } from '../services.js';
import { createHttpContextFactory } from '../trpc/context.js';
import { describeError } from '../trpc/errors.js';
import { sendErrorDescription } from './error-body.js';

/**
 * GET /api/prometheus: a plain express route, not a procedure, because the
 * REST adapter only answers JSON and Prometheus wants text. It resolves the
 * caller exactly as the procedures do (resolveActor), so it is protected
 * like the API unless SERVICE_METRICS_PUBLIC is true; then an anonymous
 * scrape sees the local organization's connections.
 */
export function prometheusRoute(services: Services) {
  const createContext = createHttpContextFactory(services, 'rest');
  return async (req: Request, res: Response) => {
    try {
      const organizationId = await scrapingOrganization(services, await resolveActor(createContext({ req, res })));
      const connections = await services.connections.list(organizationId);
      const stores = connections.map((connection) => services.stores.handle(connection));
      const [queues, http] = await Promise.all([scrapeConnections(stores), services.httpMetrics.text()]);
      res.status(200).type(services.httpMetrics.registry.contentType).send(`${queues}${http}`);
    } catch (error) {
      const description = describeError(error);
      if (description.httpStatus >= 500) req.log.error({ err: error }, 'prometheus scrape failed');
      sendErrorDescription(res, description);
    }
  };
}

async function scrapingOrganization(services: Services, actor: Awaited<ReturnType<typeof resolveActor>>): Promise<string> {
  if (!actor) {
    if (services.config.metrics.public) return services.persistence.localOrganizationId();
    throw new AppError('UNAUTHORIZED', 'Authentication required: sign in or send an API token (or set SERVICE_METRICS_PUBLIC=true)');
  }
  if (!services.config.metrics.public) authorize(actor, 'metrics.read', 'prometheus');
  return actor.organizationId;
}
