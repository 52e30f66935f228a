import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { openPersistence, type Persistence } from './persistence/persistence.js';

/**
 * The long-lived parts of the service, built once at startup and handed to
 * every request through the tRPC context. Tests build their own.
 */
export interface Services {
  config: Config;
  logger: Logger;
  persistence: Persistence;
}

export async function createServices(config: Config, logger: Logger): Promise<Services> {
  const persistence = await openPersistence(config, logger);
  return { config, logger, persistence };
}

export async function closeServices(services: Services): Promise<void> {
  await services.persistence.close();
}
