import type { Actor } from '../../server/auth/actor.js';
import { assertProtectionAllows } from '../../server/auth/connection-protection.js';
import { authorize } from '../../server/auth/authorize.js';
import { resolveQueue } from '../../server/bullmq/resolve-queue.js';
import { AlertDestination } from '../../server/persistence/entities/alerts.js';
import type { Permission } from '../../contracts/permissions.js';
import type { ConnectionStep } from './import-plan.js';
import { onStore, type ImportPlan, type PlanDeps } from './plan-import.js';

/**
 * Each part of an import needs what its own route needs: the role of the permission (403 otherwise),
 * and for what it writes in a store, the protection of the connection as it is and as the import
 * leaves it (a read-only connection refuses queue settings and schedulers, 403 CONNECTION_PROTECTED).
 */
export function assertImportAllowed(actor: Actor, plan: ImportPlan): void {
  const needs = new Set<Permission>();
  if (plan.destinations.length > 0) needs.add('alerts.write');
  for (const step of plan.connections) {
    if (step.create || step.update) needs.add('connections.write');
    if (step.rules.length > 0) needs.add('alerts.write');
    const writes: Array<[Permission, number]> = [
      ['queues.limits', step.queues.length],
      ['schedulers.write', step.schedulers.length],
    ];
    for (const [permission, count] of writes) {
      if (count === 0) continue;
      needs.add(permission);
      for (const connection of [step.current, { ...step.resulting, id: step.current?.id ?? step.resulting.name }]) {
        if (connection) assertProtectionAllows({ connection, actor, permission, input: undefined, confirms: 'queue' });
      }
    }
  }
  for (const permission of needs) authorize(actor, permission, 'definitions.import');
}

/**
 * Bullpen's own records in one transaction: destinations, then connections, then alert rules (which
 * name both). Answers the id of each connection of the plan, those it created included.
 */
export async function applyRecords(deps: PlanDeps, plan: ImportPlan): Promise<Map<string, string>> {
  const { services, writers, organizationId } = deps;
  return deps.em.transactional(async (em) => {
    const destinationDeps = { em, cipher: services.secretCipher, policy: services.webhookPolicy, organizationId };
    const destinationIds = new Map(
      (await em.find(AlertDestination, { organizationId })).map((row) => [row.name, row.id]),
    );
    for (const { definition, id, write } of plan.destinations) {
      if (id) await writers.updateDestination(destinationDeps, id, write);
      else
        destinationIds.set(
          definition.name,
          (
            await writers.createDestination(destinationDeps, {
              type: definition.type,
              name: definition.name,
              url: write.url!,
              secret: write.secret!,
            })
          ).id,
        );
    }
    const connectionIds = new Map<string, string>();
    const connectionDeps = { em, cipher: services.urlCipher, policy: services.targetPolicy, organizationId };
    for (const step of plan.connections) {
      let id = step.current?.id;
      if (step.create) id = (await writers.createConnection({ ...connectionDeps, input: step.create })).id;
      if (step.update)
        await writers.updateConnection({ ...connectionDeps, stores: services.stores, input: step.update });
      connectionIds.set(step.resulting.name, id!);
      for (const { definition, id: ruleId } of step.rules) {
        const { destinations, ...fields } = definition;
        const rule = { ...fields, destinationIds: destinations.map((name) => destinationIds.get(name)!) };
        const scope = { em, organizationId, connectionId: id! };
        if (ruleId) await writers.updateRule(scope, ruleId, rule);
        else await writers.createRule(scope, rule);
      }
    }
    return connectionIds;
  });
}

/** Queue settings and job schedulers of one connection, written as their routes write them, once its records are committed. */
async function applyStore(deps: PlanDeps, step: ConnectionStep, connectionId: string): Promise<void> {
  const { services, writers } = deps;
  if (step.create || step.update) await services.stores.release(connectionId);
  const connection = (await services.connections.find(connectionId))!;
  const store = services.stores.handle(connection);
  const place = async (queueName: string, prefix: string) => {
    const resolved = await resolveQueue(store, { queueName, prefix }, 'create');
    if (!resolved.existed) {
      await store.writeQueueMeta(queueName, prefix);
      services.queueDirectory.remember(connectionId, resolved.ref);
    }
    return resolved;
  };
  await onStore(connection, async () => {
    for (const queueStep of step.queues) {
      const { queue } = await place(queueStep.definition.queueName, queueStep.prefix);
      if (queueStep.globalConcurrency === null) await queue.removeGlobalConcurrency();
      else if (queueStep.globalConcurrency !== undefined) await queue.setGlobalConcurrency(queueStep.globalConcurrency);
      if (queueStep.globalRateLimit === null) await queue.removeGlobalRateLimit();
      else if (queueStep.globalRateLimit !== undefined)
        await queue.setGlobalRateLimit(queueStep.globalRateLimit.max, queueStep.globalRateLimit.durationMs);
    }
    for (const { definition, prefix, mode } of step.schedulers) {
      const resolved = await place(definition.queueName, prefix);
      // A connection this import created was not read when planning: its store may hold the scheduler already.
      const exists = step.current
        ? mode === 'update'
        : Boolean(await resolved.queue.getJobScheduler(definition.schedulerId));
      const write = {
        schedulerId: definition.schedulerId,
        name: definition.name,
        data: definition.data,
        schedule: definition.schedule,
        options: definition.options,
      };
      await writers.saveScheduler({ store, queue: resolved, ...write, mode: exists ? 'update' : 'create' });
    }
  });
}

/** What the import writes in stores, connection by connection, after the records are committed. */
export async function applyStores(
  deps: PlanDeps,
  plan: ImportPlan,
  connectionIds: ReadonlyMap<string, string>,
): Promise<void> {
  for (const step of plan.connections) {
    const connectionId = connectionIds.get(step.resulting.name)!;
    if (step.queues.length > 0 || step.schedulers.length > 0) await applyStore(deps, step, connectionId);
    else if (step.create || step.update) await deps.services.stores.release(connectionId);
  }
}
