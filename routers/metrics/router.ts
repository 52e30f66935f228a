import { router } from '../../server/trpc/init.js';
import { connectionMetrics } from './connection-metrics.js';
import { queueMetrics } from './queue-metrics.js';

export const metricsRouter = router({ queue: queueMetrics, connection: connectionMetrics });
