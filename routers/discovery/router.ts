import { router } from '../../server/trpc/init.js';
import { getProcedure } from './get.js';
import { scanProcedure } from './scan.js';

export const discoveryRouter = router({ get: getProcedure, scan: scanProcedure });
