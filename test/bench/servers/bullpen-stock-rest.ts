/**
 * Bullpen with its REST API served by trpc-to-openapi's stock express adapter
 * over tRPC's own caller (test/contract/support/stock-rest-api.ts) instead of
 * our façade (server/http/rest/): everything else as server/main.ts starts it (its warm-up of the queue lists aside).
 * Compiled and run by test/bench/rest-adapters.ts, beside the same build of
 * server/main.ts.
 */
import { loadConfigFromProcessEnv } from '../../../server/config.js';
import { createApp } from '../../../server/http/app.js';
import { listen } from '../../../server/http/listen.js';
import { createLogger } from '../../../server/logger.js';
import { createServices } from '../../../server/services.js';
import { stockRestApi } from '../../contract/support/stock-rest-api.js';

const config = loadConfigFromProcessEnv();
const services = await createServices(config, createLogger({ level: config.logLevel }));
const running = await listen(createApp(services, { restApi: stockRestApi }), config.http.port, config.http.host);
services.history.start();
services.tasks.start();
services.auth.useBoundPort(running.port);
process.on('SIGTERM', () => process.exit(0));
