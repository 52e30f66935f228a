import { ConfigError, loadConfigFromProcessEnv, type Config } from './config.js';
import { capHeapGrowth } from './heap-growth.js';
import { createApp } from './http/app.js';
import { listen } from './http/listen.js';
import { warmUpHttp } from './http/warm-up-http.js';
import { apiBasePath } from './http/api-base-path.js';
import { createLogger } from './logger.js';
import { closeServices, createServices } from './services.js';
import { shutDown } from './shutdown.js';
import { preloadQueueIndex } from './discovery/preload-index.js';
import { collectStartupGarbage } from './startup-garbage.js';
import { warmUpQueueLists } from './discovery/warm-up.js';
import { createCaller } from '../routers/_app.js';
import { createInnerContext } from './trpc/context.js';

function readConfig(): Config {
  try {
    return loadConfigFromProcessEnv();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`bullpen: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

capHeapGrowth();
const config = readConfig();
const logger = createLogger({ level: config.logLevel });
const services = await createServices(config, logger);
// The first list after a restart answers from the index: read it, then list once in-process (warm code, loaded script).
const system = createCaller(() => createInnerContext(services, 'internal', async () => ({ kind: 'system' })));
await warmUpQueueLists({
  connections: services.connections,
  logger,
  preload: () => preloadQueueIndex(services),
  listFirstPage: (connectionId) => system.queues.list({ connectionId, pageSize: 100 }),
});
const app = createApp(services);
await warmUpHttp(app, `${apiBasePath}/health`);
logger.debug({ ms: collectStartupGarbage() }, 'collected startup garbage');
const running = await listen(app, config.http.port, config.http.host).catch(async (error: Error) => {
  logger.fatal({ err: error }, `cannot listen on ${config.http.host}:${config.http.port}: ${error.message}`);
  await closeServices(services);
  process.exit(1);
});
services.history.start();
services.tasks.start();
services.auth.useBoundPort(running.port);
logger.info(
  {
    url: running.url,
    appBaseUrl: services.auth.appBaseUrl,
    persistence: config.persistence.mode,
    authless: config.authless,
  },
  'bullpen listening',
);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  process.exit(await shutDown({ running, services, logger }));
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
