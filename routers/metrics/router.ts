import { router } from '../../server/trpc/init.js';
import { connectionMetricsProcedure } from './connection-metrics.js';
import { queueMetricsProcedure } from './queue-metrics.js';

export const metricsRouter = router({ queue: queueMetricsProcedure, connection: connectionMetricsProcedure });
