import { assertProtectionAllows } from '../../auth/connection-protection.js';
import type { Actor } from '../../auth/actor.js';
import type { StoreConnection } from '../../stores/store-connection.js';
import type { ProcedureMeta } from '../init.js';

/**
 * The connection's protection applied to a procedure call, from its meta: the
 * permission says what the call changes in the store; a route under a queue
 * (`{queueName}` in its path) confirms with the queue's name, any other with
 * the connection's.
 */
export function enforceProtection(call: { connection: StoreConnection; actor: Actor; meta: ProcedureMeta | undefined; input: unknown }): void {
  // authorize() has already refused a procedure without a permission.
  const permission = call.meta!.permission!;
  const confirms = call.meta?.openapi?.path.includes('{queueName}') ? 'queue' : 'connection';
  assertProtectionAllows({ connection: call.connection, actor: call.actor, permission, input: call.input as Record<string, unknown> | undefined, confirms });
}
