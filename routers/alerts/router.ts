import { router } from '../../server/trpc/init.js';
import { acknowledgeEventProcedure } from './acknowledge-event.js';
import { createRuleProcedure } from './create-rule.js';
import { deleteRuleProcedure } from './delete-rule.js';
import { getRuleProcedure } from './get-rule.js';
import { listEventsProcedure } from './list-events.js';
import { listRulesProcedure } from './list-rules.js';
import { testRuleProcedure } from './test-rule.js';
import { updateRuleProcedure } from './update-rule.js';

export const alertsRouter = router({
  listRules: listRulesProcedure,
  createRule: createRuleProcedure,
  getRule: getRuleProcedure,
  updateRule: updateRuleProcedure,
  deleteRule: deleteRuleProcedure,
  testRule: testRuleProcedure,
  listEvents: listEventsProcedure,
  acknowledgeEvent: acknowledgeEventProcedure,
});
