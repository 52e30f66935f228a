import { router } from '../../server/trpc/init.js';
import { appConfig } from './app-config.js';
import { health } from './health.js';
import { mode } from './mode.js';
import { session } from './session.js';

export const systemRouter = router({ health, mode, appConfig, session });
