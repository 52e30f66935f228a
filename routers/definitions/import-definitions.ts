import { AppError } from '../../contracts/app-error.js';
import type { ImportDefinitionsInput, ImportDefinitionsResult } from '../../contracts/definitions-import.js';
import type { Actor } from '../../server/auth/actor.js';
import { applyRecords, applyStores, assertImportAllowed } from './apply-import.js';
import { planImport, type PlanDeps } from './plan-import.js';

/**
 * Imports a definitions document: the diff first (every item created, changed, unchanged, or here and
 * not in the document); a dry run answers it. Otherwise, once the role and the connections'
 * protection allow each part and every secret the changes need was given (else 400 SECRETS_MISSING,
 * nothing changed), Bullpen's records change in one transaction, then the stores' queue settings and
 * schedulers. Items not in the document are never removed; importing the same document again finds
 * everything unchanged and writes nothing.
 */
export async function importDefinitions(
  deps: PlanDeps & { actor: Actor },
  input: ImportDefinitionsInput,
): Promise<ImportDefinitionsResult> {
  const plan = await planImport(deps, input.definitions, input.secrets ?? {});
  const { changes } = plan.list;
  const count = (action: string) => changes.filter((change) => change.action === action).length;
  const answer = (applied: boolean): ImportDefinitionsResult => ({
    dryRun: input.dryRun === true,
    applied,
    changes,
    summary: {
      create: count('create'),
      change: count('change'),
      unchanged: count('unchanged'),
      notInFile: count('notInFile'),
    },
    missingSecrets: plan.book.missing,
  });
  if (input.dryRun === true) return answer(false);
  assertImportAllowed(deps.actor, plan);
  if (plan.book.missing.length > 0) {
    const names = plan.book.missing.map((missing) => missing.secret).join(', ');
    throw new AppError('SECRETS_MISSING', `The import needs secrets it was not given (nothing changed): ${names}`, {
      missingSecrets: plan.book.missing,
    });
  }
  if (count('create') + count('change') === 0) return answer(false);
  const connectionIds = await applyRecords(deps, plan);
  await applyStores(deps, plan, connectionIds);
  return answer(true);
}
