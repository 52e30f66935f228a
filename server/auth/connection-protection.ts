import { AppError } from '../../contracts/app-error.js';
import { roleOrder, storeChangeByPermission, type Permission, type StoreChange } from '../../contracts/permissions.js';
import type { Actor } from './actor.js';
import type { StoreConnection } from '../stores/store-connection.js';

/** One call as a connection's protection judges it. */
export interface ProtectedCall {
  connection: Pick<StoreConnection, 'id' | 'name' | 'protection' | 'source'>;
  actor: Pick<Actor, 'role'>;
  permission: Permission;
  /** The call's parsed input: its `confirmName`, `dryRun` and `queueName` are read. */
  input: Record<string, unknown> | undefined;
  /** What the call changes in this store, when not what its permission says (a move writes to its target). */
  change?: StoreChange;
  /** What `confirmName` must equal: the path's queue on routes under a queue, else the connection. */
  confirms: 'queue' | 'connection';
}

/** Where the setting lives, for the message: the variable of an environment connection, else the record's field. */
function settingOf(connection: ProtectedCall['connection']): string {
  const where =
    connection.source === 'env' ? `, set by SERVICE_REDIS_URL_${connection.id.toUpperCase()}_PROTECTION` : '';
  return `protection: ${connection.protection}${where}`;
}

/** Why a change is refused on a read-only connection, naming the setting. */
export const readOnlyMessage = (connection: ProtectedCall['connection'], what: string) =>
  `Connection "${connection.name}" is read-only (${settingOf(connection)}): ${what}; only reads are allowed`;

/**
 * Refuses (403 CONNECTION_PROTECTED, naming the setting) what the connection's
 * protection does not allow, from what the permission changes in the store
 * (contracts/permissions.ts): `read-only` refuses every write, `admin` leaves
 * destructive actions to admins and owners, `confirm` asks them for
 * `confirmName`. A dry run (`dryRun: true` in the PARSED input, so only on a
 * procedure that declares and implements it) changes nothing and passes. Runs
 * after the permission check, so the role already allows the action.
 */
export function assertProtectionAllows({
  connection,
  actor,
  permission,
  input,
  confirms,
  change = storeChangeByPermission[permission],
}: ProtectedCall): void {
  const { protection, name } = connection;
  if (change === 'none' || protection === 'none' || input?.dryRun === true) return;
  const refuse = (message: string, extra: Record<string, unknown> = {}) =>
    new AppError('CONNECTION_PROTECTED', message, { connectionId: connection.id, protection, permission, ...extra });
  if (protection === 'read-only') throw refuse(readOnlyMessage(connection, `${permission} would change the store`));
  if (change !== 'destroy') return;
  if (protection === 'admin' && roleOrder.indexOf(actor.role) < roleOrder.indexOf('admin')) {
    throw refuse(
      `Connection "${name}" leaves destructive actions to admins (${settingOf(connection)}): ${permission} needs the admin role, yours is ${actor.role}`,
    );
  }
  if (protection === 'confirm') {
    const expected = confirms === 'queue' ? String(input?.queueName ?? '') : name;
    if (input?.confirmName !== expected) {
      throw refuse(
        `Connection "${name}" asks destructive actions for confirmation (${settingOf(connection)}): send confirmName "${expected}" (the ${confirms} name) with ${permission}`,
        { confirmName: expected },
      );
    }
  }
}
