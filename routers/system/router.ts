import { router } from '../../server/trpc/init.js';
import { appConfigProcedure } from './app-config.js';
import { healthProcedure } from './health.js';
import { modeProcedure } from './mode.js';
import { readyProcedure } from './ready.js';
import { sessionProcedure } from './session.js';

export const systemRouter = router({
  health: healthProcedure,
  ready: readyProcedure,
  mode: modeProcedure,
  appConfig: appConfigProcedure,
  session: sessionProcedure,
});
